// `npm run bench:index-lag`: mints 100 passports one at a time on a local stack of its own and measures, for each,
// the time from the mint's receipt to its row being readable in the views schema. Prints p50 and p95.
import { chmodSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findIndexedPassport } from "../../api/src/onchain/passports.repo";
import { dataHashOf, tokenIdOf } from "../../api/src/passports/content";
import { freePort, waitFor } from "../lib/processes";
import { startEmbeddedPostgres } from "../lib/postgres";
import { startStack } from "../lib/stack";

const MINTS = Number(process.env.BENCH_MINTS ?? 100);
const POLL_MS = 5;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-index-lag-"));
  chmodSync(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: await freePort(), databases: ["bench"], persistent: false });
  const pollingIntervalMs = Number(process.env.INDEXER_POLLING_INTERVAL_MS ?? 100);
  const stack = await startStack(pg.url("bench"), { pollingIntervalMs }).catch(async (error) => {
    await pg.stop();
    throw error;
  });
  try {
    const { db, config } = stack.api;
    // The views appear once Ponder has finished its backfill.
    await waitFor("the indexer's views", async () => ((await db.raw("SELECT to_regclass('onchain.passport') AS t")).rows[0].t ? true : undefined), 120_000);
    const lags: number[] = [];
    for (let i = 0; i < MINTS; i += 1) {
      const uid = `BENCH-${String(i).padStart(6, "0")}`;
      const tokenId = tokenIdOf(uid);
      const tx = await stack.wallet.send(() => stack.contracts.passport.mint(stack.wallet.address, tokenId, 1001, dataHashOf({ uid })));
      await tx.wait();
      const receiptAt = performance.now();
      await waitFor(`passport ${uid}`, () => findIndexedPassport(db, config.onchainSchema, tokenId), 30_000, POLL_MS);
      lags.push(performance.now() - receiptAt);
      if ((i + 1) % 20 === 0) process.stdout.write(`  ${i + 1}/${MINTS} minted\n`);
    }
    const sorted = [...lags].sort((a, b) => a - b);
    console.log(`indexer polling interval: ${pollingIntervalMs} ms, mints: ${MINTS}`);
    console.log(`p50 lag ms: ${Math.round(percentile(sorted, 50))}`);
    console.log(`p95 lag ms: ${Math.round(percentile(sorted, 95))}`);
    console.log(`max lag ms: ${Math.round(sorted[sorted.length - 1]!)}`);
  } finally {
    await stack.stop();
    await pg.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
