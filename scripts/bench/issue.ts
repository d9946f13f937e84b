// `npm run bench:issue`: certificates per second through POST /api/v1/certs/issue on a local stack of its own,
// 100 issued one after another and 100 by 20 concurrent clients; prints both rates and their ratio.
import { chmodSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBrand } from "../../api/src/brands/service";
import { freePort } from "../lib/processes";
import { startEmbeddedPostgres } from "../lib/postgres";
import { startStack } from "../lib/stack";

const PER_RUN = Number(process.env.BENCH_CERTS ?? 100);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-issue-"));
  chmodSync(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: await freePort(), databases: ["bench"], persistent: false });
  const stack = await startStack(pg.url("bench")).catch(async (error) => {
    await pg.stop();
    throw error;
  });
  try {
    const { key } = await createBrand(stack.api.db, {
      slug: "bench-brand",
      name: "Bench Brand",
      uidPrefix: "BENCH",
      limitOverrides: { api_calls_per_month: 1_000_000, requests_per_hour: 1_000_000, certs_per_month: 1_000_000 },
    });
    const headers = { Authorization: `Bearer ${key.key}`, "X-Service-Brand": "bench-brand", "Content-Type": "application/json" };
    const post = async (route: string, body: unknown) => {
      const res = await fetch(`${stack.api.url}/api/v1${route}`, { method: "POST", headers, body: JSON.stringify(body) });
      const json = (await res.json()) as { data: { uid: string; tx_hash: string } };
      if (res.status >= 300) throw new Error(`${route} answered ${res.status}: ${JSON.stringify(json)}`);
      return json.data;
    };
    process.stdout.write(`registering ${2 * PER_RUN} products … `);
    const uids: string[] = [];
    for (let i = 0; i < 2 * PER_RUN; i += 1) {
      uids.push((await post("/products", { sku: `B-${i}`, name: `Bench item ${i}`, category: "t-shirt", price: 100 })).uid);
    }
    console.log("done");

    const sequential = uids.slice(0, PER_RUN);
    let started = performance.now();
    for (const uid of sequential) await post("/certs/issue", { uid });
    const sequentialSeconds = (performance.now() - started) / 1000;

    const queue = uids.slice(PER_RUN);
    const transactions = new Set<string>();
    started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let uid = queue.shift(); uid !== undefined; uid = queue.shift()) transactions.add((await post("/certs/issue", { uid })).tx_hash);
      }),
    );
    const concurrentSeconds = (performance.now() - started) / 1000;

    const minted = await stack.contracts.passport.balanceOf(stack.wallet.address);
    const sequentialRate = PER_RUN / sequentialSeconds;
    const concurrentRate = PER_RUN / concurrentSeconds;
    console.log(`certificates on chain: ${minted}`);
    console.log(`sequential: ${PER_RUN} certificates in ${sequentialSeconds.toFixed(2)} s = ${sequentialRate.toFixed(1)} certificates/s`);
    console.log(
      `concurrent (${CLIENTS} clients): ${PER_RUN} certificates in ${concurrentSeconds.toFixed(2)} s = ${concurrentRate.toFixed(1)} certificates/s, ` +
        `in ${transactions.size} transactions (concurrent mints share mintBatch transactions)`,
    );
    const ratio = concurrentRate / sequentialRate;
    console.log(`concurrent / sequential ratio: ${ratio.toFixed(2)} (target at least 3) ${ratio >= 3 ? "met" : "TARGET MISSED"}`);
  } finally {
    await stack.stop();
    await pg.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
