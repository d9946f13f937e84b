// Liveness and readiness: /healthz says the process is alive; /readyz says Postgres, the chain and the indexer are.
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../app";
import { indexerState } from "../../onchain/indexer-state.repo";
import type { OpenApiRegistry } from "../../openapi/registry";
import { redactUrls } from "../../redact";

type Check = { ok: boolean; detail?: string; [key: string]: unknown };

const CHECK_TIMEOUT_MS = 2000;

export function healthRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = new Router<AppState>();

  router.get("/healthz", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: "ok" };
  });

  router.get("/readyz", async (ctx) => {
    const [database, chain] = await Promise.all([
      check(async () => {
        await deps.db.raw("SELECT 1");
        return { ok: true };
      }),
      check(async () => ({ ok: true, head_block: await deps.provider.getBlockNumber() })),
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
    const ready = database.ok && chain.ok && indexer.ok;
    ctx.set("Cache-Control", "no-store");
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? "ready" : "not_ready", checks: { database, chain, indexer } };
  });

  openapi.add({
    method: "get",
    path: "/healthz",
    tag: "Operations",
    summary: "Liveness: the process is up",
    responses: { "200": { description: "alive", example: { status: "ok" } } },
  });
  openapi.add({
    method: "get",
    path: "/readyz",
    tag: "Operations",
    summary: "Readiness: Postgres answers, the chain answers and the indexer has caught up with the chain head",
    responses: {
      "200": {
        description: "ready",
        example: {
          status: "ready",
          checks: {
            database: { ok: true },
            chain: { ok: true, head_block: 42 },
            indexer: { ok: true, indexed_block: 42, lag_blocks: 0 },
          },
        },
      },
      "503": { description: "not ready; each failing check says what is missing" },
    },
  });
  return router;
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
