// `npm run bench:taps`: verified NFC taps per second on the scan page (emulated NTAG 424 DNA taps, each with a fresh
// counter, so each is checked, accepted and recorded) against the plain scan page of the same products, in the same
// run, with the same load generator; prints req/s, p50, p99, the verdicts seen, and the ratio held to the goal.
import os from "node:os";
import { getBrand } from "../../api/src/brands/service";
import { registerProduct } from "../../api/src/products/service";
import { provisionTags } from "../../api/src/tags/provisioning";
import { figuresTable, positiveInteger, runLoad, type LoadFigures } from "../lib/bench-load";
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

type Figures = LoadFigures & { non200: number; errors: number; verdicts: Record<string, number>; exhausted: number };

/**
 * The load generator (see runLoad): one keep-alive connection per list of URLs, each sent in order from its start
 * (a list of one is repeated), for `durationMs`; it reports where each list stopped. The verdict of each page is read
 * from its words (pages/scan.ts).
 */
const WORKER = `
const http = require("node:http");
const { lists, start, durationMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: lists.length });
const verdicts = {};
let non200 = 0, errors = 0, exhausted = 0;
const verdictOf = (body) =>
  body.includes("Genuine tag") ? "authentic" : body.includes("used before") ? "replayed" : body.includes("could not be verified") ? "invalid" : body.includes("Tag check") ? "other" : "plain";
function get(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.on("error", () => resolve({ status: 0, body: "" }));
  });
}
function tally(res) {
  if (res.status === 0) errors += 1;
  else if (res.status !== 200) non200 += 1;
  else { const v = verdictOf(res.body); verdicts[v] = (verdicts[v] || 0) + 1; }
}
async function connection(list, offset) {
  let i = offset;
  const next = () => {
    if (list.length > 1 && i >= list.length) { exhausted += 1; return undefined; }
    const url = list[list.length > 1 ? i : 0];
    i += 1;
    return () => get(url);
  };
  await timedLoop(durationMs, next, tally);
  return i;
}
measure(lists.map((list, n) => () => connection(list, start[n])), (next) => {
  agent.destroy();
  return { verdicts, non200, errors, exhausted, next };
});
`;

/** Sends each list's URLs from `start` for `seconds`; returns the figures and where each list stopped. */
async function load(lists: string[][], start: number[], seconds: number): Promise<{ figures: Figures; next: number[] }> {
  const { next, ...figures } = await runLoad<Omit<Figures, keyof LoadFigures> & { next: number[] }>(WORKER, { lists, start, durationMs: seconds * 1000 });
  return { figures, next };
}

function report(rows: Array<{ name: string; figures: Figures }>): string[] {
  return figuresTable(
    ["target", "req/s", "p50 ms", "p99 ms", "non-200", "errors", "verdicts"],
    rows.map(({ name, figures: f }) => ({
      name,
      figures: f,
      more: [String(f.non200), String(f.errors), Object.entries(f.verdicts).map(([verdict, count]) => `${verdict} ${count}`).join(", ")],
    })),
  );
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

    const ratio = verified.perSecond / plain.perSecond;
    const authentic = verified.verdicts.authentic ?? 0;
    const lines = [
      ...report([
        { name: "GET /scan/{uid} (plain page)", figures: plain },
        { name: "GET /scan/{uid} + SUN (verified taps)", figures: verified },
      ]),
      "",
      `verified taps per second: ${verified.perSecond.toFixed(0)} (${authentic} of ${verified.requests} authentic); ratio to the plain page ${ratio.toFixed(2)} (goal >= ${GOAL_RATIO.toFixed(2)}) ${ratio >= GOAL_RATIO ? "met" : "MISSED"}; p99 ${verified.p99Ms.toFixed(1)} ms (plain ${plain.p99Ms.toFixed(1)} ms)`,
    ];
    if (verified.exhausted > 0) lines.push(`  (${verified.exhausted} connections ran out of prepared taps: raise BENCH_TAPS_PER_CONNECTION for a full run)`);
    if (authentic !== verified.requests) lines.push("  (not every tap was authentic: the figures include other verdicts)");
    process.stdout.write(`\n${lines.join("\n")}\n`);
  });
}

runBenchmark(main);
