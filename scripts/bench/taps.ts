// `npm run bench:taps`: verified NFC taps per second on the scan page (emulated NTAG 424 DNA taps, each with a fresh
// counter, so each is checked, accepted and recorded) against the plain scan page of the same products, in the same
// run, with the same load generator; prints req/s, p50, p99, the verdicts seen, and the ratio held to the goal.
import os from "node:os";
import { Worker } from "node:worker_threads";
import { getBrand } from "../../api/src/brands/service";
import { registerProduct } from "../../api/src/products/service";
import { provisionTags } from "../../api/src/tags/provisioning";
import { inBenchWorkspace, runBenchmark } from "../lib/bench-workspace";
import { seedDemo } from "../lib/seed";
import { startStack } from "../lib/stack";
import { emulateTap, scanUrlOf } from "../lib/tap-emulator";

/** Concurrent connections; each taps its own tag on its own product, so its counters rise in order (no false replays). */
const CONNECTIONS = positiveInteger("BENCH_CONNECTIONS", 32);
const DURATION_S = positiveInteger("BENCH_DURATION", 10);
const WARMUP_S = positiveInteger("BENCH_WARMUP", 2);
/** Issue 12, item 8: verified taps per second at least half the plain page's rate. */
const GOAL_RATIO = 0.5;
/** Taps made ready per connection: more than any connection sends in warm-up plus run on this kind of machine. */
const TAPS_PER_CONNECTION = positiveInteger("BENCH_TAPS_PER_CONNECTION", 4000);

type Figures = { requests: number; seconds: number; reqPerSec: number; p50Ms: number; p99Ms: number; non200: number; errors: number; verdicts: Record<string, number>; exhausted: number };

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer (got "${raw}")`);
  return value;
}

/**
 * The load generator, in a worker thread so it does not share an event loop with the API it measures: one keep-alive
 * connection per list of URLs, each sent in order (a list of one is repeated), for `durationMs`. The verdict of each
 * page is read from its words (pages/scan.ts).
 */
const WORKER = `
const http = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const { lists, start, durationMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: lists.length });
const latencies = [];
const verdicts = {};
let non200 = 0, errors = 0, exhausted = 0;
const verdictOf = (body) =>
  body.includes("Genuine tag") ? "authentic" : body.includes("used before") ? "replayed" : body.includes("could not be verified") ? "invalid" : body.includes("Tag check") ? "other" : "plain";
function get(url) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.get(url, { agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ ms: performance.now() - started, status: res.statusCode, body }));
    });
    req.on("error", () => resolve({ ms: performance.now() - started, status: 0, body: "" }));
  });
}
async function connection(list, offset) {
  const until = performance.now() + durationMs;
  let i = offset;
  while (performance.now() < until) {
    if (list.length > 1 && i >= list.length) { exhausted += 1; return; }
    const res = await get(list[list.length > 1 ? i : 0]);
    i += 1;
    latencies.push(res.ms);
    if (res.status === 0) errors += 1;
    else if (res.status !== 200) non200 += 1;
    else { const v = verdictOf(res.body); verdicts[v] = (verdicts[v] || 0) + 1; }
  }
  return i;
}
const began = performance.now();
Promise.all(lists.map((list, n) => connection(list, start[n]))).then((next) => {
  agent.destroy();
  parentPort.postMessage({ latencies, verdicts, non200, errors, exhausted, next, seconds: (performance.now() - began) / 1000 });
});
`;

/** Sends each list's URLs from `start` for `seconds`; returns the figures and where each list stopped. */
function load(lists: string[][], start: number[], seconds: number): Promise<{ figures: Figures; next: number[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { lists, start, durationMs: seconds * 1000 } });
    worker.once("error", reject);
    worker.once("message", (result: { latencies: number[]; verdicts: Record<string, number>; non200: number; errors: number; exhausted: number; next: number[]; seconds: number }) => {
      void worker.terminate();
      const sorted = Float64Array.from(result.latencies).sort();
      const at = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
      resolve({
        next: result.next,
        figures: {
          requests: sorted.length,
          seconds: result.seconds,
          reqPerSec: sorted.length / result.seconds,
          p50Ms: at(0.5),
          p99Ms: at(0.99),
          non200: result.non200,
          errors: result.errors,
          verdicts: result.verdicts,
          exhausted: result.exhausted,
        },
      });
    });
  });
}

function report(rows: Array<{ name: string; figures: Figures }>): string[] {
  const header = ["target", "req/s", "p50 ms", "p99 ms", "non-200", "errors", "verdicts"];
  const cells = rows.map(({ name, figures: f }) => [
    name,
    f.reqPerSec.toFixed(0),
    f.p50Ms.toFixed(1),
    f.p99Ms.toFixed(1),
    String(f.non200),
    String(f.errors),
    Object.entries(f.verdicts).map(([verdict, count]) => `${verdict} ${count}`).join(", "),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c]!.length)));
  const line = (row: string[]) => row.map((cell, c) => (c === 0 || c === row.length - 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ").trimEnd();
  return [line(header), ...cells.map(line)];
}

async function main() {
  await inBenchWorkspace("bench-taps-", async ({ postgres, stopLater }) => {
    process.stdout.write("starting Postgres, chain, indexer and API…\n");
    const stack = await startStack(await postgres(), { blockIntervalMs: 1000 });
    stopLater(stack.stop);
    const { db, config } = stack.api;
    const demo = await seedDemo({ db, wallet: stack.wallet, contracts: stack.contracts, previous: undefined, demoApiKey: undefined, log: () => undefined });

    // One product and one NTAG 424 DNA tag per connection, provisioned as the dashboard does (keys from the CSV's source).
    const brand = await getBrand(db, demo.brand_slug);
    const productUids: string[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1) {
      const created = await registerProduct(db, { id: brand.id, slug: brand.slug, uidPrefix: brand.uidPrefix }, { sku: `BENCH-TAP-${i}`, name: `Bench tap tee ${i}`, category: "t-shirt", fabric_type: "organic cotton", price: 990 });
      productUids.push(created.uid);
    }
    const tagUids = productUids.map((_, i) => `04BE${i.toString(16).padStart(10, "0")}`.toUpperCase());
    const tags = await provisionTags({ db, config }, brand.id, { system: "bench:taps" }, { chip: "NTAG424", tagUids, productUids }, { withKeys: true });

    process.stdout.write(`emulating ${CONNECTIONS} × ${TAPS_PER_CONNECTION} taps…\n`);
    const tapLists = tags.map((tag) =>
      Array.from({ length: TAPS_PER_CONNECTION }, (_, n) => scanUrlOf(stack.api.url, tag.productUid!, emulateTap({ uid: tag.tagUid, counter: n + 1, keys: tag.keys! }))),
    );
    const plainLists = productUids.map((uid) => [`${stack.api.url}/scan/${uid}`]);
    const zero = tapLists.map(() => 0);

    process.stdout.write(`load: ${CONNECTIONS} connections (one worker thread), ${DURATION_S} s per target after a ${WARMUP_S} s warm-up; Node ${process.version}, ${os.cpus().length} CPUs\n`);
    process.stdout.write("  GET /scan/{uid} (plain)…\n");
    await load(plainLists, zero, WARMUP_S);
    const plain = (await load(plainLists, zero, DURATION_S)).figures;
    process.stdout.write("  GET /scan/{uid}?picc_data=…&cmac=… (verified taps)…\n");
    const warm = await load(tapLists, zero, WARMUP_S);
    const verified = (await load(tapLists, warm.next, DURATION_S)).figures;

    const ratio = verified.reqPerSec / plain.reqPerSec;
    const authentic = verified.verdicts.authentic ?? 0;
    const lines = [
      ...report([
        { name: "GET /scan/{uid} (plain page)", figures: plain },
        { name: "GET /scan/{uid} + SUN (verified taps)", figures: verified },
      ]),
      "",
      `verified taps per second: ${verified.reqPerSec.toFixed(0)} (${authentic} of ${verified.requests} authentic); ratio to the plain page ${ratio.toFixed(2)} (goal >= ${GOAL_RATIO.toFixed(2)}) ${ratio >= GOAL_RATIO ? "met" : "MISSED"}; p99 ${verified.p99Ms.toFixed(1)} ms (plain ${plain.p99Ms.toFixed(1)} ms)`,
    ];
    if (verified.exhausted > 0) lines.push(`  (${verified.exhausted} connections ran out of prepared taps: raise BENCH_TAPS_PER_CONNECTION for a full run)`);
    if (authentic !== verified.requests) lines.push("  (not every tap was authentic: the figures include other verdicts)");
    process.stdout.write(`\n${lines.join("\n")}\n`);
  });
}

runBenchmark(main);
