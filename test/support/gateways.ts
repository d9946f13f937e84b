// What the gateway client tests share: a local gateway simulator started for a suite (its test control reset after
// each test), an order as the gateway client sees it, a payment started at the gateway, the callback the gateway sends
// the browser to, and the GatewayError a call must fail with.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { GatewayError, type CallbackInput, type GatewayOrder, type PaymentGateway } from "../../api/src/payments/gateway";
import type { RunningSim } from "../../scripts/lib/payment-sims";

/**
 * Registers the suite's hooks for a simulator: `start` it before the suite and hand it to `ready` (which builds the
 * client under test), reset its failures, delays, tampering and clock after each test, and stop it after the suite.
 */
export function useSim<S extends RunningSim>(start: () => Promise<S>, ready: (sim: S) => void | Promise<void>): void {
  let sim: S | undefined;
  before(async () => {
    sim = await start();
    await ready(sim);
  });
  afterEach(() => sim?.control.reset());
  after(() => sim?.stop());
}

/** An order of a fresh reference as the gateway client gets it (150.00 BDT unless told otherwise). */
export function gatewayOrder({ amountMinor = 15000, currency = "BDT", clientIp = "127.0.0.1" } = {}): GatewayOrder {
  const reference = `R${randomBytes(6).toString("hex")}`;
  return { orderId: `ord_${reference}`, reference, amountMinor, currency, productName: "Linen shirt", uid: "04A1B2C3D4E5F6", clientIp };
}

/** start() at the gateway, with the order now carrying the gateway's payment id as our record would. */
export async function startedAt(
  gateway: PaymentGateway,
  order: GatewayOrder,
  callbackUrl: string,
  credentials: RunningSim["credentials"],
): Promise<{ order: GatewayOrder; redirectUrl: string }> {
  const { redirectUrl, gatewayPaymentId } = await gateway.start(order, callbackUrl, credentials);
  return { order: { ...order, gatewayPaymentId }, redirectUrl };
}

/** The callback a gateway sends the browser to, as our route would hand it to the client; it must be at `callbackUrl`. */
export function callbackOf(callbackUrl: string, redirect: string): CallbackInput {
  const url = new URL(redirect);
  expect(`${url.origin}${url.pathname}`).to.equal(callbackUrl);
  return { query: Object.fromEntries(url.searchParams) };
}

/** The GatewayError `promise` rejects with; fails the test if it resolves or rejects with anything else. */
export async function caught(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "expected a GatewayError").to.be.instanceOf(GatewayError);
  return error as GatewayError;
}
