// Gateway Keys: a brand's credentials for each payment gateway, checked with the gateway before they are kept,
// AES-256-GCM encrypted at rest (the webhook secrets' scheme, with its own AAD per brand and method), never shown
// again in full (the dashboard sees masked hints); which methods are switched on; and whether the brand sells at all.
import { recordAudit, type Actor } from "../audit/service";
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { NotFoundError, PlanFeatureError, ValidationError, type ErrorDetail } from "../errors";
import { GatewayError, type GatewayCredentials, type GatewayMethod } from "../payments/gateway";
import { PAYMENT_METHODS, planFeatures, type PaymentMethod } from "../plans/catalogue";
import { decryptSecret, encryptSecret } from "../webhooks/secrets";
import { deleteCredentialRow, findCredentialRow, listCredentialRows, updateCredentialSwitch, upsertCredentialRow } from "./gateway-keys.repo";
import { GatewayKeysRejectedError, GatewayUnavailableError, gatewayFor, isGatewayMethod, METHOD_LABELS } from "./gateways";
import { findBrandSales, updateSalesEnabled } from "./orders.repo";

export type KeysDeps = { db: Knex; config: Pick<Config, "secretsKey" | "payments"> };

/** The longest credential value taken: a 4096-bit RSA key in PEM is about 3.3 KB. */
export const CREDENTIAL_MAX_LENGTH = 8192;

/** Binds a ciphertext to its brand and method: a row copied onto another brand's or method's does not decrypt. */
const aadOf = (brandId: number, method: GatewayMethod) => Buffer.from(`passport-registry:gateway-credentials:${brandId}:${method}`);

export type MethodKeys = {
  method: PaymentMethod;
  label: string;
  allowedByPlan: boolean;
  configured: boolean;
  enabled: boolean;
  fields: Array<{ name: string; label: string; secret: boolean; hint: string | null }>;
  checkedAt: Date | null;
};

export type KeysOverview = { salesEnabled: boolean; plan: string; methods: MethodKeys[] };

/** What the Gateway Keys screen shows: every method, whether the plan allows it, and its masked credentials. */
export async function gatewayKeysOverview(deps: KeysDeps, brandId: number): Promise<KeysOverview> {
  const brand = await findBrandSales(deps.db, brandId);
  if (!brand) throw new NotFoundError("Brand");
  const rows = new Map((await listCredentialRows(deps.db, brandId)).map((row) => [row.method, row]));
  const allowed = planFeatures(brand.plan).paymentMethods;
  return {
    salesEnabled: brand.salesEnabled,
    plan: brand.plan,
    methods: PAYMENT_METHODS.map((method) => {
      const row = rows.get(method);
      const fields = isGatewayMethod(method) ? gatewayFor(deps.config, method).credentialFields : [];
      return {
        method,
        label: METHOD_LABELS[method],
        allowedByPlan: allowed.includes(method),
        configured: row !== undefined,
        enabled: row?.enabled ?? false,
        fields: fields.map((field) => ({ name: field.name, label: field.label, secret: field.secret, hint: row?.hints[field.name] ?? null })),
        checkedAt: row?.checked_at ?? null,
      };
    }),
  };
}

/**
 * Saves a method's credentials (checked with the gateway first: refused keys are a 422 and nothing is kept) and its
 * switch; `credentials` left out only switches a configured method on or off. Cash QR takes no credentials. The
 * audit log records which fields were set, never a value.
 */
export async function saveGatewayKeys(
  deps: KeysDeps,
  brandId: number,
  actor: Actor,
  method: PaymentMethod,
  input: { credentials?: Record<string, string>; enabled: boolean },
): Promise<KeysOverview> {
  const brand = await findBrandSales(deps.db, brandId);
  if (!brand) throw new NotFoundError("Brand");
  if (!planFeatures(brand.plan).paymentMethods.includes(method)) {
    throw new PlanFeatureError(`${METHOD_LABELS[method]} is not included in the ${brand.plan} plan.`, [
      { field: "method", problem: `is not included in the ${brand.plan} plan` },
    ]);
  }
  if (!isGatewayMethod(method)) {
    if (input.credentials !== undefined) throw new ValidationError([{ field: "credentials", problem: "Cash QR takes no credentials: leave it out" }]);
    await deps.db.transaction(async (trx) => {
      await upsertCredentialRow(trx, brandId, method, { enabled: input.enabled, ciphertext: null, hints: {}, checked: false });
      await recordAudit(trx, brandId, actor, { action: "payments.keys_saved", target: method, details: { enabled: input.enabled } });
    });
    return gatewayKeysOverview(deps, brandId);
  }
  if (input.credentials === undefined) {
    await deps.db.transaction(async (trx) => {
      if (!(await updateCredentialSwitch(trx, brandId, method, input.enabled))) {
        throw new ValidationError([{ field: "credentials", problem: `are required: ${METHOD_LABELS[method]} has no keys yet` }]);
      }
      await recordAudit(trx, brandId, actor, { action: "payments.keys_saved", target: method, details: { enabled: input.enabled } });
    });
    return gatewayKeysOverview(deps, brandId);
  }
  const gateway = gatewayFor(deps.config, method);
  const credentials = checkedFields(gateway.credentialFields, input.credentials);
  let check: Awaited<ReturnType<typeof gateway.checkCredentials>>;
  try {
    check = await gateway.checkCredentials(credentials);
  } catch (error) {
    if (error instanceof GatewayError) throw new GatewayUnavailableError(method, error.message);
    throw error;
  }
  if (!check.ok) throw new GatewayKeysRejectedError(method, check.reason);
  const hints = Object.fromEntries(gateway.credentialFields.map((field) => [field.name, hintOf(credentials[field.name]!, field.secret)]));
  await deps.db.transaction(async (trx) => {
    await upsertCredentialRow(trx, brandId, method, {
      enabled: input.enabled,
      ciphertext: encryptSecret(deps.config.secretsKey, JSON.stringify(credentials), aadOf(brandId, method)),
      hints,
      checked: true,
    });
    await recordAudit(trx, brandId, actor, { action: "payments.keys_saved", target: method, details: { enabled: input.enabled, fields: Object.keys(credentials) } });
  });
  return gatewayKeysOverview(deps, brandId);
}

export async function removeGatewayKeys(deps: KeysDeps, brandId: number, actor: Actor, method: PaymentMethod): Promise<KeysOverview> {
  await deps.db.transaction(async (trx) => {
    if (!(await deleteCredentialRow(trx, brandId, method))) throw new NotFoundError(`${METHOD_LABELS[method]} keys`);
    await recordAudit(trx, brandId, actor, { action: "payments.keys_removed", target: method });
  });
  return gatewayKeysOverview(deps, brandId);
}

/** Whether the brand's scan pages sell at all (each product still needs a price, each method its keys). */
export async function setSalesEnabled(deps: KeysDeps, brandId: number, actor: Actor, enabled: boolean): Promise<KeysOverview> {
  await deps.db.transaction(async (trx) => {
    await updateSalesEnabled(trx, brandId, enabled);
    await recordAudit(trx, brandId, actor, { action: "payments.sales_changed", details: { enabled } });
  });
  return gatewayKeysOverview(deps, brandId);
}

/** A method's switch and decrypted credentials, for a payment (undefined: not configured). */
export async function gatewaySetup(deps: KeysDeps, brandId: number, method: PaymentMethod): Promise<{ enabled: boolean; credentials: GatewayCredentials } | undefined> {
  const row = await findCredentialRow(deps.db, brandId, method);
  if (!row) return undefined;
  if (!isGatewayMethod(method) || row.ciphertext === null) return { enabled: row.enabled, credentials: {} };
  const credentials = JSON.parse(decryptSecret(deps.config.secretsKey, row.ciphertext, aadOf(brandId, method))) as GatewayCredentials;
  return { enabled: row.enabled, credentials };
}

/** The configured and switched-on methods of a brand (one query, no decryption): what may be offered. */
export async function enabledMethods(db: Knex, brandId: number): Promise<Set<PaymentMethod>> {
  return new Set((await listCredentialRows(db, brandId)).filter((row) => row.enabled).map((row) => row.method));
}

/** Every field of the gateway, each a non-empty string within bounds, and no other; trimmed. */
function checkedFields(fields: ReadonlyArray<{ name: string }>, given: Record<string, string>): Record<string, string> {
  const problems: ErrorDetail[] = [];
  const names = new Set(fields.map((field) => field.name));
  for (const name of Object.keys(given)) if (!names.has(name)) problems.push({ field: `credentials.${name}`, problem: "is not a field of this gateway" });
  const out: Record<string, string> = {};
  for (const { name } of fields) {
    const value = given[name]?.trim() ?? "";
    if (value === "") problems.push({ field: `credentials.${name}`, problem: "is required" });
    else if (value.length > CREDENTIAL_MAX_LENGTH) problems.push({ field: `credentials.${name}`, problem: `must be at most ${CREDENTIAL_MAX_LENGTH} characters` });
    out[name] = value;
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return out;
}

/** What the dashboard shows of a saved value: a non-secret whole (a username, a store id), a secret's last 4 characters. */
function hintOf(value: string, secret: boolean): string {
  if (!secret) return value;
  return value.length <= 8 ? "••••" : `••••${value.slice(-4)}`;
}
