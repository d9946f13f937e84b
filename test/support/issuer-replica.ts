// An issuer replica for the crash matrix (test/e2e/chain-crash.test.ts): a process built from the same parts as the
// API process (configuration from the environment, pool, provider, chain access, the background work that heals
// issuances) that serves only `POST /issue`, which runs what `POST /api/v1/certs/issue` runs. It is bundled once by
// test/support/replicas.ts (plain JavaScript starts in half the time of tsx: the matrix starts a hundred of them) and
// killed by its own crash point (CRASH_AT, CRASH_AFTER). It prints `READY <port>` on stdout once it listens.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { assembleService } from "../../api/src/assemble";
import { getBrand } from "../../api/src/brands/service";
import { issueCertificate } from "../../api/src/certificates/service";
import { loadConfig } from "../../api/src/config";
import type { AppDeps } from "../../api/src/deps";
import { AppError } from "../../api/src/errors";
import { createLogger } from "../../api/src/logger";
import { effectiveLimits } from "../../api/src/plans/catalogue";

export type IssueRequest = { brand_slug: string; uid: string };
export type IssueAnswer =
  | { ok: true; status: number; uid: string; tx_hash: string | null; block_number: number | null; created: boolean }
  | { ok: false; status: number; uid: string; code: string; message: string };

async function main() {
  const config = loadConfig(process.env);
  // Logs go to stderr, which the parent writes to this replica's log file; stdout carries only READY.
  const logger = createLogger(config.logLevel, process.stderr).child({ replica: process.pid });
  // As the API process (api/src/server.ts), by the same composition root: this process's mint pump and a candidate
  // ledger monitor; the parent migrated the database.
  const service = await assembleService(config, { jobs: ["mint-pump", "ledger-monitor"], logger, migrate: false });
  const { deps } = service;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void answer(deps, req.method, req.url, Buffer.concat(chunks).toString("utf8")).then((reply) => {
        res.writeHead(reply.status, { "Content-Type": "application/json" }).end(JSON.stringify(reply));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`);
  process.once("SIGTERM", () => {
    server.closeAllConnections();
    server.close();
    void service.stop().finally(() => process.exit(0));
  });
}

async function answer(deps: AppDeps, method: string | undefined, url: string | undefined, body: string): Promise<IssueAnswer> {
  let request: IssueRequest;
  try {
    if (method !== "POST" || url !== "/issue") throw new Error("only POST /issue");
    request = JSON.parse(body) as IssueRequest;
  } catch (error) {
    return { ok: false, status: 400, uid: "", code: "BAD_REQUEST", message: String(error) };
  }
  try {
    const issuance = await issue(deps, request);
    return {
      ok: true,
      status: issuance.created ? 201 : 200,
      uid: request.uid,
      tx_hash: issuance.txHash,
      block_number: issuance.blockNumber,
      created: issuance.created,
    };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, status: error.status, uid: request.uid, code: error.code, message: error.message };
    deps.logger.error({ err: error, uid: request.uid }, "issue failed");
    return { ok: false, status: 500, uid: request.uid, code: "SERVER_ERROR", message: String(error) };
  }
}

/** As the handler of POST /api/v1/certs/issue (api/src/routes/v1/certificates/router.ts) does it. */
async function issue(deps: AppDeps, request: IssueRequest) {
  const brand = await getBrand(deps.db, request.brand_slug);
  return issueCertificate(deps, brand.id, request.uid, effectiveLimits({ plan: brand.plan, limit_overrides: brand.limitOverrides }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
