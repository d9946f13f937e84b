// Readiness of the service: Postgres answers, the chain answers, and the indexer has caught up with the chain head;
// with the health of each background job of this process beside it. A failing job is reported, not a reason to take
// the process out of a load balancer: its requests are still served, and another process runs its jobs too.
import type { AppDeps } from "../deps";
import { indexerState } from "../onchain/indexer-state.repo";
import { redactUrls } from "../redact";
import { deepReorgsLastDay, pingDatabase } from "./health.repo";

export type Check = { ok: boolean; detail?: string; [key: string]: unknown };

const CHECK_TIMEOUT_MS = 2000;

/** Each check bounded in time; ready when all three are ok. */
export async function readiness(deps: Pick<AppDeps, "db" | "provider" | "config" | "jobs">) {
  const [database, chain] = await Promise.all([
    check(async () => {
      await pingDatabase(deps.db);
      return { ok: true };
    }),
    check(async () => {
      // The database's own check says whether Postgres answers: this count is only left out when it does not.
      const [head, deep] = await Promise.all([deps.provider.getBlockNumber(), deepReorgsLastDay(deps.db).catch(() => undefined)]);
      if (deep === undefined) return { ok: true, head_block: head };
      // Reported, not failing: the ledger healed what it could, and an operator should look at what was sent.
      const detail = deep > 0 ? `${deep} reorganisation(s) deeper than CONFIRMATIONS in the last 24 h (app.chain_reorgs)` : undefined;
      return { ok: true, head_block: head, deep_reorgs_last_day: deep, ...(detail ? { detail } : {}) };
    }),
  ]);
  const indexer = await check(async () => {
    const state = await indexerState(deps.db, deps.config.onchainSchema);
    if (!state) return { ok: false, detail: "the indexer has not published its views yet" };
    const head = typeof chain.head_block === "number" ? chain.head_block : undefined;
    const lag = head === undefined ? undefined : Math.max(0, head - state.indexedBlock);
    const ok = lag !== undefined && lag <= deps.config.indexerMaxLagBlocks;
    return {
      ok,
      indexed_block: state.indexedBlock,
      lag_blocks: lag,
      ...(ok ? {} : { detail: lag === undefined ? "chain head unknown" : `${lag} blocks behind the chain head` }),
    };
  });
  return { ready: database.ok && chain.ok && indexer.ok, checks: { database, chain, indexer }, jobs: deps.jobs.health() };
}

async function check(run: () => Promise<Check>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: `no answer within ${CHECK_TIMEOUT_MS} ms` }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([run(), timeout]);
  } catch (error) {
    return { ok: false, detail: failureDetail(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One line on what failed, safe to show anyone: ethers' full message embeds the request URL (with any provider key
 * in it) and the response body, so its short message is used ("server response 401 Unauthorized"), and any URL
 * left in a message is redacted.
 */
function failureDetail(error: unknown): string {
  const short = (error as { shortMessage?: unknown } | null)?.shortMessage;
  const message = typeof short === "string" ? short : error instanceof Error ? error.message : String(error);
  return redactUrls(message.split("\n")[0]!);
}
