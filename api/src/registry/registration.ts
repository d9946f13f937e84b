// RegisterProductDPP and the "registry-registration" job: a passport version's registration at the EU registry is
// queued (by the request, or for brands with automatic registration on every issuance and new version), then sent by
// whichever process runs the job, up to 100 per upload. The registry reads the passport from its live URL and checks
// it; its proof is kept only once its signature verifies against the registry's keys and its hash equals the
// version's anchor on chain. A registry that is down leaves the registrations queued, retried with back-off; the
// unique (passport, version) key means a version is queued once, and a claim covers one upload under a lease that
// outlasts it, so replicas do not send one twice (docs/registry.md says when a resend can still happen).
import { recordAudit, type Actor } from "../audit/service";
import type { Config } from "../config";
import type { AppDeps } from "../deps";
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from "../errors";
import { productDigitalLink } from "../gs1/links";
import { overridesOf } from "../access/access.repo";
import { withheldElements } from "../access/classes";
import { PeriodicJobBase, type RunContext } from "../jobs/periodic-job";
import type { PassportContent } from "../passports/content";
import { passportContentFor } from "../passports/content";
import { findProductByDppId, findProductsByIds, type ProductRow } from "../products/products.repo";
import { dppHeader, type DppRegistration } from "../dpp/representation";
import { versionsOf } from "../dpp/dpp.repo";
import { CirpassRegistryClient } from "./cirpass-registry-client";
import { backupUrlOf, dppReadUrl } from "./urls";
import { RegistryUnavailableError, type ProofClaims, type RegistrationMetadata, type RegistryClient } from "./registry-client";
import {
  claimDueRegistrations,
  markFailed,
  markRegistered,
  queueAutomaticRegistrations,
  queueRegistrations,
  registrationsByIds,
  registryAutoOf,
  requeueFailed,
  setRegistryAuto,
  retryLater,
  versionContents,
  type RegistrationRow,
} from "./registrations.repo";

/** The CN-8 code of the textile section, else its HS-6 code; undefined when it has neither. */
export function commodityCodeOf(content: Pick<PassportContent, "textile">): string | undefined {
  return content.textile?.commodity_code?.cn8 ?? content.textile?.commodity_code?.hs6;
}

/**
 * The registration of a passport's version, from the EN 18223 header the version is served with (registry field:
 * header field), or every field that is missing, each named as the passport (or the configuration) names it.
 */
export function registrationMetadata(
  config: Pick<Config, "publicBaseUrl" | "domains" | "backupOperatorUrl">,
  product: ProductRow,
  content: PassportContent,
): { metadata: RegistrationMetadata } | { problems: ErrorDetail[] } {
  const header = dppHeader(config, product, content, new Date());
  const problems: ErrorDetail[] = [];
  const commodityCode = commodityCodeOf(content);
  if (!commodityCode) problems.push({ field: `${content.schema}.textile.commodity_code`, problem: "is missing: the registry needs the product's CN-8 or HS-6 code" });
  if (!header.economicOperatorId) problems.push({ field: "economicOperatorId", problem: "is not set: set the brand's EORI or GLN (Branding screen, or the set-economic-operator command)" });
  if (!header.facilityId) problems.push({ field: "facilityId", problem: "is not set: the maker needs a GLN or an Open Supply Hub id" });
  const backupURL = backupUrlOf(config, product.dpp_id);
  if (!backupURL) problems.push({ field: "BACKUP_OPERATOR_URL", problem: "is not configured: the registry needs the passport's back-up URL" });
  if (problems.length > 0) return { problems };
  return {
    metadata: {
      upi: header.uniqueProductIdentifier,
      reoId: header.economicOperatorId!,
      liveURL: dppReadUrl(config.publicBaseUrl, product.dpp_id),
      backupURL: backupURL!,
      commodityCode: commodityCode!,
      facilitiesId: [header.facilityId!],
      granularityLevel: header.granularity.toUpperCase() as RegistrationMetadata["granularityLevel"],
      ...(header.granularity === "item" ? { deactivated: header.dppStatus !== "active" } : {}),
      dataCarrierTypes: productDigitalLink(config, product) ? ["NFC", "QR"] : ["NFC"],
    },
  };
}

/** A registration as the passport's header shows it (docs/registry.md); null when none was asked for. */
export function registrationInHeader(row: RegistrationRow | undefined): NonNullable<DppRegistration> | null {
  if (!row) return null;
  const proof = row.proof_jwt && row.proof_timestamp && row.data_hash ? { timestamp: new Date(row.proof_timestamp).toISOString(), dataHash: row.data_hash, jwt: row.proof_jwt } : null;
  return { version: row.version, state: row.state, registryId: row.registry_id, registeredAt: row.registered_at ? new Date(row.registered_at).toISOString() : null, proof, error: row.error };
}

/** A registration as RegisterProductDPP answers it: the passport, then what its header shows, and the attempts made. */
export type RegistrationView = { digitalProductPassportId: string } & NonNullable<DppRegistration> & { attempts: number };

export function presentRegistration(row: RegistrationRow, dppId: string): RegistrationView {
  return { digitalProductPassportId: dppId, ...registrationInHeader(row)!, attempts: row.attempts };
}

/**
 * RegisterProductDPP: queues the registration of the latest anchored version of each of the brand's passports and
 * answers their registrations. Asking again for a version already queued or registered answers the same row (one
 * registration per version); a failed one is queued again. Nothing is queued unless every passport can be registered.
 */
export async function requestRegistrations(deps: AppDeps, brandId: number, dppIds: string[]): Promise<RegistrationView[]> {
  const unique = [...new Set(dppIds)];
  const wanted: Array<{ product: ProductRow; version: number; dataHash: string }> = [];
  const problems: ErrorDetail[] = [];
  for (const [index, dppId] of unique.entries()) {
    const product = await findProductByDppId(deps.db, dppId, brandId);
    if (!product) throw new NotFoundError(`Digital product passport ${dppId}`);
    const latest = (await versionsOf(deps.db, product.id)).at(-1);
    if (!latest) throw new ConflictError(`The passport ${dppId} is not anchored yet: register it once its mint is confirmed.`);
    const content = latest.content === null ? passportContentFor(product) : (JSON.parse(latest.content) as PassportContent);
    const built = registrationMetadata(deps.config, product, content);
    if ("problems" in built) problems.push(...built.problems.map((p) => ({ field: unique.length > 1 ? `digitalProductPassportIds.${index} ${p.field}` : p.field, problem: p.problem })));
    else wanted.push({ product, version: latest.version, dataHash: latest.data_hash });
  }
  if (problems.length > 0) throw new ValidationError(problems, "The passport cannot be registered: the registry needs fields it does not have.");
  const rows = await queueRegistrations(
    deps.db,
    wanted.map((w) => ({ product_id: w.product.id, version: w.version, brand_id: brandId, data_hash: w.dataHash })),
  );
  const failed = rows.filter((r) => r.state === "failed").map((r) => r.id);
  await requeueFailed(deps.db, failed);
  const current = failed.length > 0 ? await registrationsByIds(deps.db, rows.map((r) => r.id)) : rows;
  registrationJobOf(deps).wake();
  const dppIdOf = new Map(wanted.map((w) => [w.product.id, w.product.dpp_id]));
  return current.map((row) => presentRegistration(row, dppIdOf.get(row.product_id)!));
}

export type RegistrationJobOptions = {
  /** The registry; by default the CIRPASS-2 interface at REGISTRY_URL (none: the job sends nothing). */
  client?: RegistryClient;
  /** First retry delay after the registry was down; doubled per attempt, at most an hour. */
  retryBaseMs?: number;
  intervalMs?: number;
  /**
   * How often a run looks for versions automatic registration should queue (it reads every passport of the brands that
   * have it on, so not on every run): a minute by default.
   */
  autoScanIntervalMs?: number;
};

/**
 * How long a claim is held before another process may take it. A claim covers one upload, which takes at most the
 * client's time limit (REGISTRY_TIMEOUT_MS, at most 120 s) and the checks of its proofs: the lease outlasts it.
 */
const LEASE_MS = 5 * 60_000;
/** Versions automatic registration queues per statement. */
const AUTO_QUEUE_BATCH = 1000;

/**
 * The "registry-registration" job. Each run queues what automatic registration asks for, then claims due
 * registrations one upload's worth at a time (what the registry takes per call: 100, or 1) and uploads them, until
 * none is due. A run that found the registry down fails (the job then waits longer before the next, doubling), and
 * the registrations it held are due again after their own back-off.
 */
export class RegistryRegistrationJob extends PeriodicJobBase<number> {
  private readonly client: RegistryClient | undefined;
  private readonly retryBaseMs: number;
  private readonly autoScanIntervalMs: number;
  private lastAutoScan = 0;

  constructor(
    private readonly deps: AppDeps,
    options: RegistrationJobOptions = {},
  ) {
    super({ name: "registry-registration", intervalMs: options.intervalMs ?? 5000, logger: deps.logger });
    const { registry } = deps.config;
    this.client = options.client ?? (registry.url ? new CirpassRegistryClient({ ...registry, url: registry.url }) : undefined);
    this.retryBaseMs = options.retryBaseMs ?? 5000;
    this.autoScanIntervalMs = options.autoScanIntervalMs ?? 60_000;
  }

  /** One run: how many registrations it settled. */
  protected async run({ signal }: RunContext): Promise<number> {
    const client = this.client;
    if (!client) return 0;
    if (Date.now() - this.lastAutoScan >= this.autoScanIntervalMs) {
      this.lastAutoScan = Date.now();
      while (!signal.aborted && (await queueAutomaticRegistrations(this.deps.db, AUTO_QUEUE_BATCH)) === AUTO_QUEUE_BATCH);
    }
    let settled = 0;
    while (!signal.aborted) {
      // One upload's worth per claim: a claim never waits behind other uploads, so its lease outlasts its own upload
      // and no other replica takes it while it is sent (a claim of 100 sent one by one would outlive its lease).
      const due = await claimDueRegistrations(this.deps.db, client.maxBatch, LEASE_MS);
      if (due.length === 0) break;
      const outcome = await this.upload(client, due);
      // The registry is down: the rest stays due, and is tried on a later run after the job's own back-off.
      if (outcome instanceof RegistryUnavailableError) throw outcome;
      settled += outcome;
      if (due.length < client.maxBatch) break;
    }
    return settled;
  }

  private backoff(attempts: number): number {
    return Math.min(this.retryBaseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
  }

  /** Uploads one batch: answers how many were settled, or the registry's unavailability (the batch then waits). */
  private async upload(client: RegistryClient, rows: RegistrationRow[]): Promise<number | RegistryUnavailableError> {
    const { db, config } = this.deps;
    const products = new Map((await findProductsByIds(db, [...new Set(rows.map((r) => r.product_id))])).map((p) => [p.id, p]));
    const contents = await versionContents(db, rows);
    const sendable: Array<{ row: RegistrationRow; metadata: RegistrationMetadata; content: PassportContent }> = [];
    let settled = 0;
    for (const row of rows) {
      const product = products.get(row.product_id);
      const content = contents.get(`${row.product_id}/${row.version}`);
      if (!product) continue;
      const version = content ? (JSON.parse(content) as PassportContent) : passportContentFor(product);
      const built = registrationMetadata(config, product, version);
      if ("problems" in built) {
        await markFailed(db, row, built.problems.map((p) => `${p.field} ${p.problem}`).join("; "));
        settled += 1;
      } else {
        sendable.push({ row, metadata: built.metadata, content: version });
      }
    }
    if (sendable.length === 0) return settled;
    let outcomes;
    try {
      outcomes = await client.register(sendable.map((s) => s.metadata));
    } catch (error) {
      if (!(error instanceof RegistryUnavailableError)) throw error;
      // Also when the call timed out after the registry took it: it is sent again later (docs/registry.md, "Sent twice?").
      await retryLater(db, sendable.map((s) => s.row), error.message, (a) => this.backoff(a));
      return error;
    }
    for (const [index, outcome] of outcomes.entries()) {
      const { row, metadata, content } = sendable[index]!;
      settled += 1;
      if (!outcome.ok) {
        await markFailed(db, row, `the registry refused it: ${outcome.reason}`);
        continue;
      }
      const { entry } = outcome;
      if (!entry.proof) {
        // The CIRPASS-2 mock seals nothing: the registration is kept with its id, without a proof.
        await markRegistered(db, row, { registryId: entry.registryId, proofJwt: null, proofTimestamp: null });
        continue;
      }
      const checked = await this.checkProof(client, entry.proof, entry.registryId, metadata, row, content);
      if ("problem" in checked) await markFailed(db, row, checked.problem);
      else await markRegistered(db, row, { registryId: entry.registryId, proofJwt: entry.proof, proofTimestamp: checked.claims.issuedAt });
    }
    return settled;
  }

  /** Why a proof cannot be kept: a signature that fails, claims about another passport, or another version's hash. */
  private async checkProof(
    client: RegistryClient,
    proof: string,
    registryId: string,
    metadata: RegistrationMetadata,
    row: RegistrationRow,
    content: PassportContent,
  ): Promise<{ claims: ProofClaims } | { problem: string }> {
    let claims;
    try {
      claims = await client.verifyProof(proof);
    } catch (error) {
      return { problem: `the registry's proof did not verify against its keys (${error instanceof Error ? error.message : String(error)})` };
    }
    if (claims.registryId !== registryId || claims.upi !== metadata.upi) return { problem: "the registry's proof names another registration" };
    if (claims.dppHash.toLowerCase() !== (row.data_hash ?? "").toLowerCase()) {
      const problem = `the registry read a passport whose hash ${claims.dppHash} is not version ${row.version}'s anchor ${row.data_hash}`;
      // A public read of a version with elements above the public's class cannot hash to its anchor (docs/registry.md).
      const withheld = withheldElements(content, "public", await overridesOf(this.deps.db, row.brand_id));
      if (withheld.length > 0) {
        return { problem: `${problem}: the version withholds ${withheld.join(", ")} from the public, so the registry must read it as an authority (issue it an authority key, docs/registry.md)` };
      }
      return { problem: `${problem} (a newer version is registered on its own)` };
    }
    return { claims };
  }
}

const jobs = new WeakMap<object, RegistryRegistrationJob>();

/** This process's registration job for the deps' pool (one per pool, like the bulk issuance job per chain). */
export function registrationJobOf(deps: AppDeps): RegistryRegistrationJob {
  let job = jobs.get(deps.db);
  if (!job) {
    job = new RegistryRegistrationJob(deps);
    jobs.set(deps.db, job);
  }
  return job;
}

/** Whether the brand's passports are registered automatically. */
export async function automaticRegistrationOf(db: AppDeps["db"], brandId: number): Promise<boolean> {
  return registryAutoOf(db, brandId);
}

/**
 * Turns a brand's automatic registration on or off (audited): when on, the job queues every passport version the
 * brand issues, and every new version of one, as if RegisterProductDPP had been asked for it, and a change of a
 * registered header field queues the brand's registrations again (requeueForHeaderChange).
 */
export async function setAutomaticRegistration(db: AppDeps["db"], brand: { id: number }, actor: Actor, on: boolean): Promise<void> {
  await db.transaction(async (trx) => {
    if ((await registryAutoOf(trx, brand.id)) === on) return;
    await setRegistryAuto(trx, brand.id, on);
    await recordAudit(trx, brand.id, actor, { action: on ? "registry.automatic_on" : "registry.automatic_off", target: null, details: {} });
  });
}
