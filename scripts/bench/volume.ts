// `npm run bench:volume`: the read paths against a database at volume (1,000,000 products and 100,000 passports across
// 100 brands of Zipf-like sizes): p50 and p99 at 50 connections for each, whether any of their statements plans a
// sequential scan of a large table, and the database's size per passport.
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import pg from "pg";
import { createDb, type Knex } from "../../api/src/db/knex";
import { forgetListCounts } from "../../api/src/products/product-list.repo";
import { STATS_TTL_MS } from "../../api/src/stats/service";
import { dashboardClient } from "../../test/support/dashboard";
import { figuresTable, positiveInteger, type LoadFigures } from "../lib/bench-load";
import { inBenchWorkspace, runBenchmark } from "../lib/bench-workspace";
import { indexerSchemaName } from "../lib/indexer";
import { machineCpuSeconds } from "../lib/proc-cpu";
import { waitFor } from "../lib/processes";
import { startStack, type Stack } from "../lib/stack";
import { seedVolume, type SeededBrand } from "../lib/volume-seed";

const SIZES = {
  brands: positiveInteger("BENCH_BRANDS", 100),
  products: positiveInteger("BENCH_PRODUCTS", 1_000_000),
  passports: positiveInteger("BENCH_PASSPORTS", 100_000),
};
const CONNECTIONS = positiveInteger("BENCH_CONNECTIONS", 50);
const DURATION_S = positiveInteger("BENCH_DURATION", 5);
/**
 * Long enough for V8 to have compiled the path's code: with 1 s, the first paths measured spent a third more API CPU
 * per request than the same path measured after the others (the JIT's work, which a running server has done).
 */
const WARMUP_S = positiveInteger("BENCH_WARMUP", 3);
/** Distinct requests per target that read one record each (random UIDs, so the 1 s read cache rarely answers). */
const SAMPLE = 20_000;
/** A table with at least this many rows is large: a sequential scan of it on a read path is a finding. */
const LARGE_TABLE_ROWS = 10_000;
const GOAL = { p99Ms: 50 };
/**
 * After each target's saturated run, a run paced at this fraction of the rate it answered: the latency of the same 50
 * connections when the API is not the bottleneck, which tells a path slow to answer from a machine out of capacity.
 * The goal is judged on the saturated run.
 */
const PACED_FRACTION = Number(process.env.BENCH_PACED ?? 0.5);
if (!(PACED_FRACTION > 0 && PACED_FRACTION <= 1)) throw new Error(`BENCH_PACED must be a fraction above 0 and at most 1 (got "${process.env.BENCH_PACED}")`);
/** Only the targets whose name contains this text (e.g. "stats"), for a run about one path; all when unset. */
const ONLY = process.env.BENCH_ONLY ?? "";
/** BENCH_SQL=1: print each path's statements with their planning and execution time on the idle database. */
const SHOW_SQL = process.env.BENCH_SQL === "1";
/**
 * BENCH_KEEP=1: once the figures are printed, the stack and its seeded database keep running (their URLs printed)
 * until Ctrl-C, for EXPLAIN (ANALYZE, BUFFERS) and single requests against the same data.
 */
const KEEP = process.env.BENCH_KEEP === "1";
/**
 * BENCH_PROFILE=<dir>: a V8 CPU profile of this process (the API) during each target's measured load, written to
 * <dir>/<target>.cpuprofile (open it in Chrome's DevTools, Performance panel).
 */
const PROFILE_DIR = process.env.BENCH_PROFILE ?? "";

/** One request: its URL (path) and headers. */
type Request = [path: string, headers: Record<string, string> | null];
type Target = { name: string; requests: Request[] };
/** `maxMs`: the slowest answer, which shows a stall of all connections at once that p99 of thousands hides. */
type Figures = LoadFigures & { maxMs: number; failures: number };

/**
 * The load generator, in a process of its own (so it shares no event loop with the API measured here, and this
 * process's CPU time is the API's), each request the next of the target's list from a random start.
 * - Without `rate`: autocannon, each connection sending its next request as soon as the last is answered. The API is
 *   saturated, so latency is mostly queueing: 50 connections over the rate answered.
 * - With `rate`: requests due at even intervals, `rate` a second in all, each sent on the first of the 50 keep-alive
 *   connections free, its latency counted from when it was due (as wrk2 does), so a stall is not hidden by requests
 *   not sent. autocannon's own rate is not used: each of its connections sends its share of a second as fast as it is
 *   answered, then waits for the next second, so the load comes in bursts at full speed.
 */
const LOADER = `
const http = require("node:http");
const percentile = (sorted, q) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
process.once("message", ({ autocannon: modulePath, base, requests, connections, seconds, rate }) => {
  let i = Math.floor(Math.random() * requests.length);
  const next = () => requests[i++ % requests.length];
  const done = (figures) => process.send({ seconds, perSecond: figures.requests / seconds, ...figures }, () => process.exit(0));
  if (!rate) {
    const setupRequest = (req) => {
      const [path, headers] = next();
      return { ...req, path, headers: { ...req.headers, ...(headers || {}) } };
    };
    require(modulePath)({ url: base, connections, duration: seconds, requests: [{ setupRequest }] }, (error, result) => {
      if (error) throw error;
      done({ requests: result.requests.total, p50Ms: result.latency.p50, p99Ms: result.latency.p99, maxMs: result.latency.max, failures: result.non2xx + result.errors + result.timeouts });
    });
    return;
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  let failures = 0;
  let sent = 0;
  let open = 0;
  const began = performance.now();
  const send = (due) => {
    const [path, headers] = next();
    open += 1;
    const finish = (ok) => {
      latencies.push(performance.now() - due);
      if (!ok) failures += 1;
      open -= 1;
    };
    http.get(base + path, { agent, headers: headers || {} }, (res) => {
      res.resume();
      res.on("end", () => finish(res.statusCode >= 200 && res.statusCode < 300));
    }).on("error", () => finish(false));
  };
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - began >= seconds * 1000) {
      clearInterval(timer);
      const wait = setInterval(() => {
        if (open > 0 && performance.now() - began < seconds * 1000 + 30_000) return;
        clearInterval(wait);
        agent.destroy();
        const sorted = Float64Array.from(latencies).sort();
        done({ requests: latencies.length, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted.at(-1) ?? 0, failures: failures + open });
      }, 20);
      return;
    }
    for (; sent < Math.floor(((now - began) / 1000) * rate); sent++) send(began + (sent * 1000) / rate);
  }, 1);
});
`;

function load(base: string, target: Target, seconds: number, rate?: number): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", LOADER], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let figures: Figures | undefined;
    child.once("error", reject);
    child.once("message", (message: Figures) => (figures = message));
    child.once("exit", (code) => (figures ? resolve(figures) : reject(new Error(`the load generator exited with code ${code} and no figures`))));
    child.send({ autocannon: require.resolve("autocannon"), base, requests: target.requests, connections: CONNECTIONS, seconds, rate });
  });
}

const loadAverage = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");

/** Resolves once /readyz reports the indexer at the chain head: Ponder has built its tables, indexes and views. */
async function indexerCaughtUp(stack: Stack): Promise<void> {
  const head = await stack.wallet.wallet.provider!.getBlockNumber();
  await waitFor(
    "the indexer to reach the chain head",
    async () => {
      const body = (await (await fetch(`${stack.api.url}/readyz`)).json()) as { checks?: { indexer?: { indexed_block?: number } } };
      return (body.checks?.indexer?.indexed_block ?? -1) >= head ? true : undefined;
    },
    120_000,
    200,
  );
}

/**
 * Resolves once the API's pool is idle (at most one connection in use, by a background job, and nobody waiting): the
 * requests a slow target left behind when its load stopped must not run into the next target's figures.
 */
async function settled(api: Stack["api"]): Promise<void> {
  const pool = (api.db.client as { pool: { numUsed(): number; numPendingAcquires(): number } }).pool;
  await waitFor("the API's requests to finish", async () => (pool.numUsed() <= 1 && pool.numPendingAcquires() === 0 ? true : undefined), 120_000, 50);
}

/**
 * The first page of a dashboard list, for `query`, and its middle page as the dashboard asks for it: by the cursor of
 * the page before (Next page). `byNumber`: also the middle page by its number alone (a link typed or shared), which
 * the list counts off from the first. The list counts only up to 10,000 (then says "10,000+"): beyond that, the last
 * page is found by asking for pages, doubling then halving.
 */
async function dashboardPages(base: string, cookie: string, name: string, query: string, byNumber = false): Promise<Target[]> {
  const headers = { Cookie: cookie };
  const first = `/api/dashboard/products?per_page=25${query ? `&${query}` : ""}`;
  type Page = { data: unknown[]; meta: { total: number; total_is_lower_bound?: boolean; next_cursor: string | null } };
  const read = async (page: number) => {
    const path = `${first}&page=${page}`;
    const res = await fetch(base + path, { headers });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as Page;
  };
  const { meta } = await read(1);
  let pages = Math.max(1, Math.ceil(meta.total / 25));
  if (meta.total_is_lower_bound) {
    let high = pages * 2;
    while ((await read(high)).data.length > 0) high *= 2;
    while (high - pages > 1) {
      const mid = Math.floor((pages + high) / 2);
      if ((await read(mid)).data.length > 0) pages = mid;
      else high = mid;
    }
  }
  const middle = Math.max(2, Math.ceil(pages / 2));
  const cursor = (await read(middle - 1)).meta.next_cursor;
  const where = `page ${middle.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}`;
  return [
    { name: `${name}, first page`, requests: [[first, headers]] },
    ...(cursor ? [{ name: `${name}, ${where}`, requests: [[`${first}&page=${middle}&after=${cursor}`, headers]] as Request[] }] : []),
    ...(byNumber ? [{ name: `${name}, ${where} by number`, requests: [[`${first}&page=${middle}`, headers]] as Request[] }] : []),
  ];
}

async function targetsFor(stack: Stack, db: Knex, brands: SeededBrand[]): Promise<{ targets: Target[]; skipped: string[] }> {
  const base = stack.api.url;
  const largest = brands[0]!;
  const keyOf = new Map(brands.map((b) => [b.slug, { Authorization: `Bearer ${b.key}`, "X-Service-Brand": b.slug }]));
  const { cookie } = await dashboardClient(base, stack.api.db, largest.id, "viewer");
  const targets: Target[] = [
    ...(await dashboardPages(base, cookie, "dashboard list (largest brand)", "", true)),
    // A broad word (one product in eight is a hoodie) and what a person looking for one product types: part of a SKU.
    ...(await dashboardPages(base, cookie, "dashboard search q=hoodie", "q=hoodie")),
    { name: "dashboard search q=0012345 (part of a SKU)", requests: [["/api/dashboard/products?per_page=25&q=0012345", { Cookie: cookie }]] },
    ...(await dashboardPages(base, cookie, "dashboard filter status=verified", "status=verified")),
    ...(await dashboardPages(base, cookie, "dashboard filter category=jeans", "category=jeans")),
  ];

  const products = await db.raw<{ rows: Array<{ uid: string; slug: string }> }>(
    "SELECT p.uid, b.slug FROM app.products p JOIN app.brands b ON b.id = p.brand_id ORDER BY random() LIMIT ?",
    [SAMPLE],
  );
  targets.push({ name: "GET /api/v1/products/{uid}", requests: products.rows.map((p) => [`/api/v1/products/${p.uid}`, keyOf.get(p.slug)!]) });
  const passports = await db.raw<{ rows: Array<{ uid: string }> }>(
    "SELECT p.uid FROM app.passports x JOIN app.products p ON p.id = x.product_id ORDER BY random() LIMIT ?",
    [SAMPLE],
  );
  targets.push({ name: "GET /api/dpp/{uid}", requests: passports.rows.map((p) => [`/api/dpp/${p.uid}`, null]) });

  // ---- EN 18222 read by product id: measured once the route exists (the lead is building it), skipped until then.
  const skipped: string[] = [];
  const lifecyclePath = "/api/dpp-lifecycle/v1/dppsByProductId/{productId}";
  const openapi = (await (await fetch(`${base}/api/openapi.json`)).json()) as { paths?: Record<string, unknown> };
  if (openapi.paths && lifecyclePath in openapi.paths) {
    const probe = await fetch(`${base}/api/dpp-lifecycle/v1/dppsByProductId/${encodeURIComponent(passports.rows[0]!.uid)}`);
    if (probe.status === 200) {
      targets.push({
        name: "GET /api/dpp-lifecycle/v1/dppsByProductId/{productId}",
        requests: passports.rows.map((p) => [`/api/dpp-lifecycle/v1/dppsByProductId/${encodeURIComponent(p.uid)}`, null]),
      });
    } else {
      skipped.push(`${lifecyclePath}: present, but answers ${probe.status} for a passport's UID (${(await probe.text()).slice(0, 200)})`);
    }
  } else {
    skipped.push(`${lifecyclePath}: not present`);
  }
  // ----

  targets.push({ name: "GET /api/stats", requests: [["/api/stats", null]] });
  targets.push({ name: "GET /api/v1/usage (every brand)", requests: brands.map((b) => ["/api/v1/usage", keyOf.get(b.slug)!]) });
  const deliveries = `/api/v1/webhooks/${largest.webhookId}/deliveries`;
  const middle = await db.raw<{ rows: Array<{ id: string }> }>(
    `SELECT id FROM app.webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, id DESC
     OFFSET (SELECT count(*) / 2 FROM app.webhook_deliveries WHERE endpoint_id = ?) LIMIT 1`,
    [largest.webhookId, largest.webhookId],
  );
  const key = keyOf.get(largest.slug)!;
  targets.push({ name: "webhook delivery log (largest brand), first page", requests: [[deliveries, key]] });
  targets.push({ name: "webhook delivery log (largest brand), middle (?before=)", requests: [[`${deliveries}?before=${middle.rows[0]!.id}`, key]] });
  return { targets, skipped };
}

type Statement = { sql: string; bindings: unknown[] };
type PlanNode = { "Node Type": string; "Relation Name"?: string; Schema?: string; Plans?: PlanNode[] };

/**
 * The statements one request runs, from knex's query events on the API's own pool. The API's background jobs use the
 * same pool: statements also seen while nothing was requested (`background`) are left out.
 */
async function statementsOf(api: Stack["api"], request: Request, background: Set<string>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const listener = (query: { sql: string; bindings?: unknown[] }) => seen.push({ sql: query.sql, bindings: query.bindings ?? [] });
  api.db.on("query", listener);
  try {
    const res = await fetch(api.url + request[0], { headers: request[1] ?? undefined });
    await res.arrayBuffer();
    // What the request started and left running (the stats' next snapshot, taken while the last is served) counts too.
    await settled(api);
  } finally {
    api.db.off("query", listener);
  }
  return seen.filter((s) => !background.has(s.sql));
}

async function backgroundStatements(api: Stack["api"], ms: number): Promise<Set<string>> {
  const seen = new Set<string>();
  const listener = (query: { sql: string }) => seen.add(query.sql);
  api.db.on("query", listener);
  await new Promise((resolve) => setTimeout(resolve, ms));
  api.db.off("query", listener);
  return seen;
}

/** knex hands pg `?` placeholders (and `??` identifiers) over as $n; a statement from its events may have either. */
function native(db: Knex, statement: Statement): { sql: string; bindings: unknown[] } {
  if (/\$\d/.test(statement.sql) || statement.bindings.length === 0) return { sql: statement.sql, bindings: statement.bindings };
  const { sql, bindings } = db.raw(statement.sql, statement.bindings as Knex.RawBinding[]).toSQL().toNative();
  return { sql, bindings: [...bindings] };
}

/** Statements that write or call a function that does: planned, never run (EXPLAIN without ANALYZE). */
const WRITES = /\b(?:insert|update|delete|meter_call|lease_calls|release_calls|set_config|pg_notify|nextval|for update)\b/i;

/**
 * What the plans of `statements` say: sequential scans of large tables ("schema.table (rows)", each once), and the
 * milliseconds the reads among them take on an idle database (planning and execution, EXPLAIN ANALYZE), a figure
 * of the database's own cost that the machine's load changes much less than latency under load.
 */
async function planFindings(
  client: pg.Client,
  db: Knex,
  statements: Statement[],
  rowsOf: Map<string, number>,
): Promise<{ explained: number; scans: string[]; readMs: number }> {
  const scans = new Set<string>();
  let explained = 0;
  let readMs = 0;
  for (const statement of statements) {
    if (!/^\s*(?:select|with|insert|update|delete)\b/i.test(statement.sql)) continue;
    const { sql, bindings } = native(db, statement);
    const analyse = !WRITES.test(sql);
    const { rows } = await client.query<{ "QUERY PLAN": Array<{ Plan: PlanNode; "Planning Time"?: number; "Execution Time"?: number }> }>(
      `EXPLAIN (FORMAT JSON, VERBOSE${analyse ? ", ANALYZE" : ""}) ${sql}`,
      bindings,
    );
    explained += 1;
    const plan = rows[0]!["QUERY PLAN"][0]!;
    readMs += (plan["Planning Time"] ?? 0) + (plan["Execution Time"] ?? 0);
    if (SHOW_SQL) console.log(`    ${((plan["Planning Time"] ?? 0) + (plan["Execution Time"] ?? 0)).toFixed(2).padStart(8)} ms  ${sql.replace(/\s+/g, " ").slice(0, 220)}`);
    const walk = (node: PlanNode) => {
      if (node["Node Type"] === "Seq Scan" && node["Relation Name"]) {
        const name = `${node.Schema}.${node["Relation Name"]}`;
        if ((rowsOf.get(name) ?? 0) >= LARGE_TABLE_ROWS) scans.add(`${name} (${Math.round(rowsOf.get(name)!).toLocaleString("en-US")} rows)`);
      }
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan.Plan);
  }
  return { explained, scans: [...scans], readMs };
}

/** Starts V8's CPU profiler on this process; `stop` writes its profile into PROFILE_DIR, named after the target. */
async function startProfile(): Promise<{ stop(name: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop(name) {
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      fs.mkdirSync(PROFILE_DIR, { recursive: true });
      const file = path.join(PROFILE_DIR, `${name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      console.log(`  CPU profile: ${file}`);
    },
  };
}

async function main(): Promise<void> {
  await inBenchWorkspace("bench-volume-", async ({ postgres, postgresCpuSeconds, stopLater }) => {
    const started = performance.now();
    console.log(`starting Postgres, chain, indexer and API… (load average ${loadAverage()})`);
    const databaseUrl = await postgres();
    // A block a second, as `npm start` mines: each new block makes the indexed reads render again, as in production.
    const stack = await startStack(databaseUrl, { blockIntervalMs: 1000, pollingIntervalMs: 1000 });
    stopLater(stack.stop);
    await indexerCaughtUp(stack);

    const db = createDb(databaseUrl, 1);
    stopLater(() => db.destroy());
    console.log(`seeding ${SIZES.products.toLocaleString("en-US")} products and ${SIZES.passports.toLocaleString("en-US")} passports across ${SIZES.brands} brands…`);
    const seed = await seedVolume(
      db,
      {
        ponderSchema: indexerSchemaName(stack.chain.chainId, stack.deployment.contracts.ProductPassport.blockHash),
        chainId: stack.chain.chainId,
        passportContract: stack.deployment.contracts.ProductPassport.address,
      },
      SIZES,
      (line) => console.log(line),
    );
    const seedSeconds = Object.values(seed.seconds).reduce((a, b) => a + b, 0);
    console.log(`  seeded in ${seedSeconds.toFixed(1)} s (${Object.entries(seed.seconds).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ")})`);

    const { targets: all, skipped } = await targetsFor(stack, db, seed.brands);
    const targets = all.filter((target) => target.name.includes(ONLY));
    for (const target of targets) {
      const [path, headers] = target.requests[0]!;
      const res = await fetch(stack.api.url + path, { headers: headers ?? undefined });
      if (res.status !== 200) throw new Error(`${target.name} answers ${res.status}, not 200: ${(await res.text()).slice(0, 300)}`);
    }

    // Query plans first, with no load: the statements of one fresh request of each target, each EXPLAINed.
    const sizes = await db.raw<{ rows: Array<{ name: string; rows: number }> }>(
      `SELECT n.nspname || '.' || c.relname AS name, c.reltuples::float8 AS rows FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r'`,
    );
    const rowsOf = new Map(sizes.rows.map((r) => [r.name, Number(r.rows)]));
    const background = await backgroundStatements(stack.api, 3000);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const plans = new Map<string, { statements: number; explained: number; scans: string[]; readMs: number }>();
    try {
      for (const target of targets) {
        const request = target.requests[Math.floor(target.requests.length / 2)]!;
        // Every statement of the path is seen, the list's count too, which its earlier pages may have kept.
        forgetListCounts();
        let statements = await statementsOf(stack.api, request, background);
        if (statements.length === 0) {
          // Answered from a cache (the stats snapshot): asked again once it has expired, so its statements are seen.
          await new Promise((resolve) => setTimeout(resolve, STATS_TTL_MS + 100));
          statements = await statementsOf(stack.api, request, background);
        }
        if (SHOW_SQL) console.log(`  ${target.name}:`);
        plans.set(target.name, { statements: statements.length, ...(await planFindings(client, db, statements, rowsOf)) });
      }
    } finally {
      await client.end();
    }

    console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s per target after a ${WARMUP_S} s warm-up; Node ${process.version}, ${os.cpus().length} CPUs`);
    const rows: Array<{ name: string; figures: Figures; more: string[] }> = [];
    for (const target of targets) {
      await settled(stack.api);
      await load(stack.api.url, target, WARMUP_S);
      // CPU per answer, of this process (the API: the load runs in its own process) and of Postgres: figures that the
      // machine's other work changes far less than latency, for comparing one change with the next.
      const cpu = process.cpuUsage();
      const postgresCpu = postgresCpuSeconds();
      // And the whole machine's: what is left over is the load generator's, the indexer's, the chain's and the OS's,
      // and how busy the cores were tells a path bound by CPU (busy throughout) from one that waits.
      const machine = machineCpuSeconds();
      // The share of the time the API's event loop was busy: near 100 %, its one thread is what limits the rate.
      const loop = performance.eventLoopUtilization();
      // Statements sent per answer under load: fewer than a lone request's where reads are shared or cached.
      let sent = 0;
      const count = () => (sent += 1);
      stack.api.db.on("query", count);
      const profiler = PROFILE_DIR ? await startProfile() : undefined;
      const figures = await load(stack.api.url, target, DURATION_S);
      if (profiler) await profiler.stop(target.name);
      stack.api.db.off("query", count);
      const apiCpu = process.cpuUsage(cpu);
      const apiSeconds = (apiCpu.user + apiCpu.system) / 1e6;
      const loopBusy = performance.eventLoopUtilization(loop).utilization;
      const pgSeconds = postgresCpuSeconds() - postgresCpu;
      const machineAfter = machineCpuSeconds();
      const [busySeconds, allSeconds] = [machineAfter.busy - machine.busy, machineAfter.all - machine.all];
      const pacedRate = Math.max(1, Math.round(figures.perSecond * PACED_FRACTION));
      const paced = figures.requests > 0 ? await settled(stack.api).then(() => load(stack.api.url, target, DURATION_S, pacedRate)) : undefined;
      const perRequest = (seconds: number) => (figures.requests > 0 ? ((seconds * 1000) / figures.requests).toFixed(2) : "-");
      const plan = plans.get(target.name)!;
      const row = {
        name: target.name,
        figures,
        more: [
          figures.maxMs.toFixed(0),
          figures.requests > 0 && figures.p99Ms <= GOAL.p99Ms ? "met" : "MISSED",
          String(figures.failures + (paced?.failures ?? 0)),
          paced ? String(pacedRate) : "-",
          paced ? paced.p99Ms.toFixed(1) : "-",
          perRequest(apiSeconds),
          perRequest(pgSeconds),
          perRequest(Math.max(0, busySeconds - apiSeconds - pgSeconds)),
          allSeconds > 0 ? ((100 * busySeconds) / allSeconds).toFixed(0) : "-",
          (100 * loopBusy).toFixed(0),
          figures.requests > 0 ? (sent / figures.requests).toFixed(2) : "-",
          `${plan.statements}/${plan.explained}`,
          plan.readMs.toFixed(1),
          loadAverage().split(" ")[0]!,
          plan.scans.length === 0 ? "none" : plan.scans.join(", "),
        ],
      };
      rows.push(row);
      const latency = figures.requests > 0 ? `p50 ${figures.p50Ms.toFixed(1)} ms, p99 ${figures.p99Ms.toFixed(1)} ms` : `no request answered in ${DURATION_S} s`;
      const atPace = paced ? `; paced at ${pacedRate} req/s: p50 ${paced.p50Ms.toFixed(1)} ms, p99 ${paced.p99Ms.toFixed(1)} ms` : "";
      console.log(`  ${target.name}: ${latency}${atPace} (load average ${loadAverage()})`);
    }
    console.log("");
    for (const line of figuresTable(["target", "req/s", "p50 ms", "p99 ms", "max ms", `p99 ≤ ${GOAL.p99Ms}`, "failed", "paced req/s", "paced p99 ms", "API CPU ms/req", "pg CPU ms/req", "other CPU ms/req", "CPU busy %", "API loop busy %", "stmts/req", "stmts/explained", "db ms idle", "load 1m", "seq scans of large tables"], rows)) console.log(line);
    for (const line of skipped) console.log(`  skipped: ${line}`);

    const size = await db.raw<{ rows: Array<{ total: string; passports: string }> }>(
      "SELECT pg_database_size(current_database())::text AS total, (SELECT count(*) FROM app.passports)::text AS passports",
    );
    const biggest = await db.raw<{ rows: Array<{ name: string; bytes: string }> }>(
      `SELECT n.nspname || '.' || c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 8`,
    );
    const total = Number(size.rows[0]!.total);
    const passports = Number(size.rows[0]!.passports);
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    console.log(`\ndatabase size ${mb(total)}: ${(total / passports / 1024).toFixed(1)} KB per passport (${passports.toLocaleString("en-US")} passports, ${SIZES.products.toLocaleString("en-US")} products)`);
    console.log(`  largest tables with their indexes: ${biggest.rows.map((r) => `${r.name} ${mb(Number(r.bytes))}`).join(", ")}`);
    const missed = rows.filter((r) => r.more[1] !== "met" || r.more.at(-1) !== "none").map((r) => r.name);
    // Little's law: with every connection always waiting on an answer, the mean latency is connections / rate.
    const leastRate = Math.ceil((CONNECTIONS * 1000) / GOAL.p99Ms);
    console.log(
      `\nsaturated, latency is mostly queueing: the mean is ${CONNECTIONS} connections / req/s (Little's law), so p99 ≤ ${GOAL.p99Ms} ms needs well over ` +
        `${leastRate.toLocaleString("en-US")} req/s. The rate is at most 1 / API CPU ms/req while the API's one loop is busy throughout, and ` +
        `${os.cpus().length} cores / (API + pg + other CPU ms/req) while the cores are.`,
    );
    console.log(`goals: p99 ≤ ${GOAL.p99Ms} ms and no sequential scan of a large table (≥ ${LARGE_TABLE_ROWS.toLocaleString("en-US")} rows) on each path: ${missed.length === 0 ? "met" : `MISSED by ${missed.join("; ")}`}`);
    console.log(`whole run ${((performance.now() - started) / 1000).toFixed(0)} s, load average ${loadAverage()}`);
    if (KEEP) {
      console.log(`\nkept running until Ctrl-C: database ${databaseUrl}, API ${stack.api.url}`);
      await new Promise(() => undefined);
    }
  });
}

runBenchmark(main);
