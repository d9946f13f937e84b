// The back-up operator's replication (ESPR Art. 10(4), docs/backup.md): a periodic job that asks each primary of
// BACKUP_OF what changed, reads every passport that did through the primary's public EN 18222 API, and keeps each
// version it does not hold yet only when keccak256 of the exact bytes the primary served is the hash the chain set
// for that version (read from this process's own RPC). A version that does not match is logged and refused, never
// stored, so never served.
import canonicalize from "canonicalize";
import { keccak256 } from "ethers";
import type { AppDeps } from "../deps";
import { HEADER_FIELDS } from "../dpp/representation";
import { PeriodicJob } from "../jobs/periodic-job";
import { tokenIdOf, type PassportContent } from "../passports/content";
import { anchorsInTransaction } from "./chain-anchors";
import { heldPassport, heldVersions, primaryRow, recordRefusal, recordRun, savePassportCopy, type HeldVersion } from "./backup.repo";

/** Passports copied at once: each is a few requests to the primary and a log query to the chain. */
const PASSPORTS_AT_ONCE = 4;
/** Passports asked per feed page. */
const FEED_PAGE = 500;
/**
 * How far before its high-water mark a run reads the feed again: a change is stamped when its transaction writes it
 * and seen when it commits, so one stamped a little earlier may commit after a run passed its instant.
 */
export const FEED_OVERLAP_MS = 5 * 60_000;
const GRANULARITIES = ["model", "batch", "item"] as const;
/** Time limit of one request to a primary. */
const REQUEST_TIMEOUT_MS = 15_000;

type Primary = { baseUrl: string; feedKey: string };
type Deps = Pick<AppDeps, "config" | "db" | "chain" | "logger">;

/** What one run did for one primary. */
export type ReplicationRound = { primary: string; passports: number; versionsAdded: number; refused: number; pending: number };

export function backupReplicationJob(deps: Deps): PeriodicJob<ReplicationRound[]> {
  return new PeriodicJob({ name: "backup-replication", intervalMs: deps.config.backup.pollIntervalMs, logger: deps.logger, run: ({ signal }) => replicateAll(deps, signal) });
}

/** One round over every primary; a primary that cannot be read fails the run (after the others had theirs). */
export async function replicateAll(deps: Deps, signal?: AbortSignal): Promise<ReplicationRound[]> {
  const rounds: ReplicationRound[] = [];
  let failure: unknown;
  for (const primary of deps.config.backup.primaries) {
    if (signal?.aborted) break;
    try {
      rounds.push(await replicatePrimary(deps, primary, signal));
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure) throw failure;
  return rounds;
}

async function replicatePrimary(deps: Deps, primary: Primary, signal?: AbortSignal): Promise<ReplicationRound> {
  const row = await primaryRow(deps.db, primary.baseUrl);
  const since = new Date(row.high_water ? row.high_water.getTime() - FEED_OVERLAP_MS : 0);
  const round: ReplicationRound = { primary: primary.baseUrl, passports: 0, versionsAdded: 0, refused: 0, pending: 0 };
  let seen: number | undefined;
  // A passport with a version not yet final on this chain holds the mark at its change, so the next run reads it again.
  let pendingAt: number | undefined;
  try {
    let cursor: string | undefined;
    do {
      const page = await feedPage(primary, since, cursor, signal);
      const queue = [...page.changes];
      const worker = async () => {
        for (let change = queue.shift(); change; change = queue.shift()) {
          if (signal?.aborted) throw new Error("stopped");
          const outcome = await copyPassport(deps, primary, row.id, change.dppId, signal);
          const at = new Date(change.changedAt).getTime();
          round.passports += 1;
          round.versionsAdded += outcome.added;
          round.refused += outcome.refused;
          round.pending += outcome.pending;
          seen = Math.max(seen ?? at, at);
          if (outcome.pending > 0) pendingAt = Math.min(pendingAt ?? at, at);
        }
      };
      await Promise.all(Array.from({ length: PASSPORTS_AT_ONCE }, worker));
      cursor = page.paging_metadata.cursor;
    } while (cursor);
  } catch (error) {
    await recordRun(deps.db, row.id, { ok: false, error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  const mark = seen === undefined ? undefined : Math.min(seen, pendingAt ?? seen);
  await recordRun(deps.db, row.id, { ok: true, highWater: mark === undefined ? null : new Date(mark) });
  if (round.versionsAdded + round.refused > 0) deps.logger.info({ ...round }, "backup replication: versions copied");
  return round;
}

type FeedPage = { changes: Array<{ dppId: string; changedAt: string }>; paging_metadata: { cursor?: string } };

async function feedPage(primary: Primary, since: Date, cursor: string | undefined, signal?: AbortSignal): Promise<FeedPage> {
  const query = new URLSearchParams({ since: since.toISOString(), limit: String(FEED_PAGE), ...(cursor ? { cursor } : {}) });
  const res = await request(primary, `/api/backup/v1/changes?${query}`, signal);
  if (res.status !== 200) throw new Error(`the changes feed of ${primary.baseUrl} answered ${res.status}`);
  return (await res.json()) as FeedPage;
}

/**
 * A request to the primary with the key it issued this back-up: the feed needs it, and where the primary restricts
 * elements by access class (docs/access.md), the key is an authority key, so every read is whole (and logged there).
 */
async function request(primary: Primary, path: string, signal: AbortSignal | undefined, asPublic = false): Promise<Response> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  return fetch(`${primary.baseUrl}${path}`, {
    headers: asPublic ? {} : { Authorization: `Bearer ${primary.feedKey}` },
    redirect: "error",
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
}

/** A 200's body, or undefined on a 404 (no such passport or version); any other answer fails the run. */
async function readOk(primary: Primary, path: string, signal?: AbortSignal, asPublic = false): Promise<Buffer | undefined> {
  const res = await request(primary, path, signal, asPublic);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`${primary.baseUrl}${path} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

type ListedVersion = { version: number; validFrom: string; dataHash: string; transactionHash: string | null; blockNumber: number | null; contentKept: boolean };
type ServedDpp = Record<string, unknown> & { anchor?: { chainId?: unknown; contractAddress?: unknown; tokenId?: unknown }; access?: { withheld?: unknown } };

type Verdict = { ok: HeldVersion } | { pending: true } | { refused: string; computed?: string; chain?: string };

/** Copies what is new of one passport; returns how many versions it added, refused and left for later. */
async function copyPassport(deps: Deps, primary: Primary, primaryId: number, dppId: string, signal?: AbortSignal) {
  const outcome = { added: 0, refused: 0, pending: 0 };
  const path = `/api/dpp-lifecycle/v1/dpps/${encodeURIComponent(dppId)}`;
  // The passport as the public reads it: its header, its anchor, and what the primary withholds from the public.
  const served = await readOk(primary, path, signal, true);
  const list = served && (await readOk(primary, `${path}/versions`, signal));
  if (!served || !list) return outcome;
  const dpp = JSON.parse(served.toString("utf8")) as ServedDpp;
  const listed = (JSON.parse(list.toString("utf8")) as { versions: ListedVersion[] }).versions;
  const [existing, held] = await Promise.all([heldPassport(deps.db, dppId), heldVersions(deps.db, dppId)]);
  const heldNumbers = new Set(held.map((v) => v.version));
  const fresh = listed.filter((v) => !heldNumbers.has(v.version) && v.contentKept).sort((a, b) => a.version - b.version);

  const refuse = async (version: number, reason: string, computed?: string, chain?: string) => {
    outcome.refused += 1;
    deps.logger.warn({ primary: primary.baseUrl, dppId, version, reason, computedHash: computed, chainHash: chain }, "backup replication: version refused");
    await recordRefusal(deps.db, { dpp_id: dppId, version, primary_id: primaryId, reason, computed_hash: computed ?? null, chain_hash: chain ?? null });
  };
  const header = Object.fromEntries(HEADER_FIELDS.filter((field) => field in dpp).map((field) => [field, dpp[field]]));
  const granularity = GRANULARITIES.find((level) => level === header.granularity);
  const problem = header.digitalProductPassportId !== dppId ? "the primary served another passport id" : anchorProblem(deps, dpp.anchor);
  if (problem || !granularity) {
    for (const v of fresh) await refuse(v.version, problem ?? "the primary served no granularity");
    return outcome;
  }

  const verified: HeldVersion[] = [];
  let uid = existing?.uid;
  // The hash of each version held or verified: an update on chain names the hash it replaced.
  const hashes = new Map(held.map((v) => [v.version, v.data_hash]));
  for (const listedVersion of fresh) {
    const bytes = await readOk(primary, `${path}/versions/${listedVersion.version}/content`, signal);
    if (!bytes) continue;
    const verdict = await verify(deps, dppId, listedVersion, bytes, {
      uid,
      servedTokenId: dpp.anchor?.tokenId,
      previousHash: hashes.get(listedVersion.version - 1),
    });
    if ("ok" in verdict) {
      uid ??= (JSON.parse(verdict.ok.content) as PassportContent).uid.toUpperCase();
      verified.push(verdict.ok);
      hashes.set(verdict.ok.version, verdict.ok.data_hash);
      outcome.added += 1;
    } else if ("pending" in verdict) {
      outcome.pending += 1;
    } else {
      await refuse(listedVersion.version, verdict.refused, verdict.computed, verdict.chain);
    }
  }
  if (!uid || (!existing && verified.length === 0)) return outcome;
  const latest = [...held, ...verified].sort((a, b) => a.version - b.version).at(-1)!;
  const product = (JSON.parse(latest.content) as PassportContent).product;
  await savePassportCopy(
    deps.db,
    {
      dpp_id: dppId,
      primary_id: primaryId,
      uid,
      token_id: tokenIdOf(uid),
      granularity,
      header: JSON.stringify(header),
      gtin: product.gtin ?? null,
      lot: product.lot ?? null,
      serial: product.serial ?? null,
      public_withheld: withheldOf(dpp),
    },
    verified,
  );
  return outcome;
}

/** The elements the primary withheld from the public (its `access` block, docs/access.md); none where it has no classes. */
function withheldOf(dpp: ServedDpp): string[] {
  const withheld = dpp.access?.withheld;
  if (!Array.isArray(withheld)) return [];
  return withheld.filter((path): path is string => typeof path === "string" && path.length > 0 && path.length <= 300).slice(0, 1000);
}

/** Why the anchor the primary names is not one this back-up can check, or undefined when it is on its own chain and contract. */
function anchorProblem(deps: Deps, anchor: ServedDpp["anchor"]): string | undefined {
  const { deployment } = deps.chain.contracts();
  if (anchor?.chainId !== deps.config.chainId) return `the passport is anchored on chain ${String(anchor?.chainId)}, not on this back-up's chain ${deps.config.chainId}`;
  if (typeof anchor.contractAddress !== "string" || anchor.contractAddress.toLowerCase() !== deployment.contracts.ProductPassport.address.toLowerCase()) {
    return `the passport is anchored on contract ${String(anchor.contractAddress)}, not on the passport contract this back-up reads`;
  }
  return undefined;
}

type VerifyContext = {
  /** The UID of the versions already held or verified: every version of a passport names the same one. */
  uid: string | undefined;
  servedTokenId: unknown;
  /** The hash of the version before, when it is held or verified. */
  previousHash: string | undefined;
};

/**
 * One version's bytes against the chain: UTF-8 canonical JSON (RFC 8785) of this passport's content, whose keccak256
 * is a hash the passport contract set for the passport's token in the transaction the primary names, in a final
 * block: version 1 by its mint, a later one by an update from the version before it (when that one is held).
 */
async function verify(deps: Deps, dppId: string, listed: ListedVersion, bytes: Buffer, context: VerifyContext): Promise<Verdict> {
  const text = bytes.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes)) return { refused: "the content is not UTF-8" };
  let content: PassportContent;
  try {
    content = JSON.parse(text) as PassportContent;
  } catch {
    return { refused: "the content is not JSON" };
  }
  if (canonicalize(content) !== text) return { refused: "the content is not RFC 8785 canonical JSON" };
  if (typeof content.uid !== "string" || content.uid.length === 0 || content.uid.length > 100) return { refused: "the content names no UID" };
  const uid = content.uid.toUpperCase();
  if (context.uid && uid !== context.uid) return { refused: `the content names UID ${uid}, the passport's earlier versions ${context.uid}` };
  if (content.passport && content.passport.id !== dppId) return { refused: "the content names another passport id" };
  const tokenId = tokenIdOf(uid);
  if (context.servedTokenId !== undefined && context.servedTokenId !== null && context.servedTokenId !== tokenId) return { refused: "the primary names another token than the UID's" };
  const computed = keccak256(bytes).toLowerCase();
  if (!listed.transactionHash || !/^0x[0-9a-fA-F]{64}$/.test(listed.transactionHash)) return { refused: "the primary names no transaction for this version", computed };
  const anchors = await anchorsInTransaction(deps.chain, deps.config.confirmations, tokenId, listed.transactionHash);
  if (anchors.status === "pending") return { pending: true };
  if (anchors.status === "unknown") {
    // Anchored in a block this chain has not reached yet: the next run looks again. Otherwise there is no such transaction.
    if (listed.blockNumber === null || listed.blockNumber > anchors.finalBlock) return { pending: true };
    return { refused: `this chain has no transaction ${listed.transactionHash}`, computed };
  }
  const event = anchors.events.find((e) => e.hash === computed);
  if (!event) return { refused: "keccak256 of the content is not the hash the chain set for this version", computed, chain: anchors.events[0]?.hash };
  if ((listed.version === 1) !== (event.kind === "minted")) return { refused: `the chain ${event.kind} this hash, which is not version ${listed.version}'s step`, computed, chain: event.hash };
  if (event.previousHash && context.previousHash && event.previousHash !== context.previousHash) {
    return { refused: `the chain set this hash after ${event.previousHash}, not after version ${listed.version - 1}`, computed, chain: event.hash };
  }
  return { ok: { version: listed.version, data_hash: computed, content: text, valid_from: new Date(listed.validFrom), tx_hash: event.txHash, block_number: String(event.blockNumber) } };
}
