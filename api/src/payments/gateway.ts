// The one interface every payment gateway client implements (bKash, Nagad, SSLCommerz), and the registry of them.
import type { Config } from "../config";
import { BkashGateway } from "./bkash";
import { NagadGateway } from "./nagad";
import { SslcommerzGateway } from "./sslcommerz";

export type GatewayMethod = "bkash" | "nagad" | "sslcommerz";
/** Decrypted credentials of one brand for one gateway; field names per gateway in `credentialFields`. */
export type GatewayCredentials = Readonly<Record<string, string>>;
export type GatewayOrder = Readonly<{
  /** Our public order id, "ord_" + 22 base62 chars. */
  orderId: string;
  /** Our merchant reference sent to the gateway (merchantInvoiceNumber / orderId / tran_id): [A-Za-z0-9]{1,20}. */
  reference: string;
  amountMinor: number;
  currency: string;
  productName: string;
  uid: string;
  customer?: Readonly<{ name?: string; email?: string; phone?: string }>;
  clientIp: string;
  /** Set once start() returned one. */
  gatewayPaymentId?: string | null;
  /** Set once paid. */
  gatewayTrxId?: string | null;
}>;
export type CallbackInput = Readonly<{ query: Record<string, string>; form?: Record<string, string> }>;
export type StartResult = { redirectUrl: string; gatewayPaymentId: string | null };
/** What the gateway said, after our checks of reference, amount and currency against the GatewayOrder. */
export type Settlement =
  | { outcome: "paid"; gatewayPaymentId: string | null; gatewayTrxId: string; detail: string }
  | { outcome: "failed" | "cancelled"; reason: string }
  /**
   * Not settled yet: ask again later. `uncertain`: the gateway would not say (a status query refused, two of its
   * answers that disagree), so money may have moved: the order is neither failed nor expired on it.
   */
  | { outcome: "pending"; reason: string; uncertain?: boolean }
  /** Amount, currency or reference differ: never paid. */
  | { outcome: "mismatch"; reason: string };

/** What became of a refund whose answer was lost: made (its id and state), not made, or the gateway would not say. */
export type LostRefund =
  | { outcome: "made"; refundId: string; state: "refunded" | "pending" }
  | { outcome: "not_made"; reason: string }
  | { outcome: "unknown"; reason: string };

/** The gateway could not be reached, timed out, or answered 5xx or garbage (retryable), or refused for good (not). */
export class GatewayError extends Error {
  constructor(
    readonly method: GatewayMethod,
    readonly code: string,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface PaymentGateway {
  readonly method: GatewayMethod;
  readonly currencies: readonly string[];
  /** Field names of the credentials, with which are secret (never shown again) and a label for the dashboard. */
  readonly credentialFields: ReadonlyArray<{ name: string; label: string; secret: boolean }>;
  /** A cheap authenticated call (bKash token grant, SSLCommerz/Nagad equivalent) to check keys when saved. */
  checkCredentials(creds: GatewayCredentials): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Creates the payment at the gateway; the shopper's browser is sent to redirectUrl. `callbackUrl` is ours. */
  start(order: GatewayOrder, callbackUrl: string, creds: GatewayCredentials): Promise<StartResult>;
  /** From an incoming callback/IPN, which of our orders it claims to be about (not trusted: settle() checks). */
  callbackKey(input: CallbackInput): { reference?: string; gatewayPaymentId?: string } | null;
  /** The gateway's completion step for a callback (bKash execute, Nagad verify, SSLCommerz verify_sign + status). */
  complete(order: GatewayOrder, input: CallbackInput, creds: GatewayCredentials): Promise<Settlement>;
  /** Independent re-read (bKash payment/status, Nagad verify/payment, SSLCommerz validation API / transaction query). */
  verify(order: GatewayOrder, creds: GatewayCredentials): Promise<Settlement>;
  /** Refund (bKash refund, SSLCommerz refund API); Nagad: `refundSupported = false`. */
  readonly refundSupported: boolean;
  refund(
    order: GatewayOrder,
    amountMinor: number,
    reason: string,
    creds: GatewayCredentials,
  ): Promise<{ refundId: string; state: "refunded" | "pending" }>;
  /**
   * Where a refund that `refund` answered "pending" stands now (SSLCommerz settles refunds later). Absent on
   * gateways whose refunds are final when answered (bKash) or that have none (Nagad).
   */
  refundStatus?(order: GatewayOrder, refundId: string, creds: GatewayCredentials): Promise<"refunded" | "pending" | "failed">;
  /**
   * Whether a refund of `amountMinor` whose answer was lost (`refund` timed out or answered 5xx) was made, asked of
   * the gateway's own record of the payment; `knownRefundIds` are this payment's refunds we recorded, which it is not.
   * Absent on gateways that cannot find a refund without the id they answered (SSLCommerz) or have none (Nagad).
   */
  findRefund?(order: GatewayOrder, amountMinor: number, knownRefundIds: readonly string[], creds: GatewayCredentials): Promise<LostRefund>;
}

/** The gateways by method, configured with base URLs (config.payments.gateways) and the per-call time limit. */
export function paymentGateways(config: Config["payments"]): Record<GatewayMethod, PaymentGateway> {
  const timeoutMs = config.gatewayTimeoutMs;
  return {
    bkash: new BkashGateway({ baseUrl: config.gateways.bkash.baseUrl, timeoutMs }),
    nagad: new NagadGateway({ baseUrl: config.gateways.nagad.baseUrl, timeoutMs }),
    sslcommerz: new SslcommerzGateway({ baseUrl: config.gateways.sslcommerz.baseUrl, timeoutMs }),
  };
}
