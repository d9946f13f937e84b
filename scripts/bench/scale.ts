// `npm run bench:scale`: the same load of public reads and then certificate issuances against 1 and then 2 API
// processes (round-robin), with 2 webhook dispatchers, one Postgres and one chain, all started here; prints throughput,
// the ratio, p50/p99, the CPU milliseconds per request of each part, and the correctness counts (duplicate mints,
// over-admitted calls, double deliveries), which must all be 0: the run exits 1 otherwise.
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ZeroAddress } from "ethers";
import { createBrand } from "../../api/src/brands/service";
import { tokenIdOf } from "../../api/src/passports/content";
import { registerProduct } from "../../api/src/products/service";
import { registerV1Endpoint } from "../../api/src/webhooks/endpoints";
import { positiveInteger, runLoad, type LoadFigures } from "../lib/bench-load";
import { inBenchWorkspace, runBenchmark } from "../lib/bench-workspace";
import { startEmbeddedPostgres } from "../lib/postgres";
import { freePort, spawnLogged, waitFor, type Child } from "../lib/processes";
import { startStack, type Stack } from "../lib/stack";
import { cpuSeconds, postgresCpuSeconds } from "../lib/proc-cpu";

const ROOT = path.resolve(__dirname, "..", "..");
/** Reads per phase (half GET /api/dpp/{uid}, half GET /scan/{uid}) and issuances of fresh products per phase. */
const READS = positiveInteger("BENCH_READS", 1500);
const ISSUES = positiveInteger("BENCH_ISSUES", 60);
const CONNECTIONS = positiveInteger("BENCH_CONNECTIONS", 16);
/** The limited brands: their monthly certificate and API call limits, and how many calls hammer each. */
const CERT_LIMIT = 10;
const CALL_LIMIT = 60;
const HAMMER = 40;
/** Upper bound of one phase's load, and of the wait for every webhook to arrive. */
const PHASE_CAP_S = 90;
const DELIVERY_WAIT_S = 60;

type Op = { kind: "dpp" | "scan" | "issue"; uid: string };
type Outcome = { kind: Op["kind"]; uid: string; status: number; ms: number };
type Run = { figures: LoadFigures & { outcomes: Outcome[] }; cpu: Record<string, number> };
type Phase = { name: string; runs: { reads: Run; issuances: Run }; hammer: HammerCounts };
type HammerCounts = { certLimit: number; certsAdmitted: number; callLimit: number; callsAdmitted: number; other: Record<string, number> };

/**
 * The load generator (see runLoad): `connections` loops share the list of operations, each sent to the next API
 * process in turn; every answer's kind, status and time is kept.
 */
const WORKER = `
const { bases, ops, headers, connections, durationMs } = workerData;
const outcomes = [];
let i = 0;
function next() {
  if (i >= ops.length) return undefined;
  const op = ops[i];
  const base = bases[i % bases.length];
  i += 1;
  return async () => {
    const started = performance.now();
    let status = 0;
    try {
      const res = op.kind === "issue"
        ? await fetch(base + "/api/v1/certs/issue", { method: "POST", headers, body: JSON.stringify({ uid: op.uid }) })
        : await fetch(base + (op.kind === "dpp" ? "/api/dpp/" : "/scan/") + op.uid);
      await res.arrayBuffer();
      status = res.status;
    } catch (error) {
      status = 0;
    }
    outcomes.push({ kind: op.kind, uid: op.uid, status, ms: performance.now() - started });
  };
}
const connection = () => timedLoop(durationMs, next, () => {});
measure(Array.from({ length: connections }, () => connection), () => ({ outcomes }));
`;

/** CPU seconds a process (and, with `children`, its waited-for children) has used so far, from /proc/<pid>/stat. */
/** A webhook receiver counting deliveries per webhook-id and per event and UID. */
async function startReceiver() {
  const byDeliveryId = new Map<string, number>();
  const byEvent = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const id = String(req.headers["webhook-id"] ?? "");
      byDeliveryId.set(id, (byDeliveryId.get(id) ?? 0) + 1);
      try {
        const payload = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { event?: string; uid?: string };
        const key = `${payload.event}:${payload.uid}`;
        byEvent.set(key, (byEvent.get(key) ?? 0) + 1);
      } catch {
        byEvent.set("unparsable", (byEvent.get("unparsable") ?? 0) + 1);
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    byDeliveryId,
    byEvent,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The environment of an API or dispatcher process on this stack. */
function processEnv(stack: Stack, dir: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    SERVICE_MODE: "local",
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: stack.api.config.databaseUrl,
    RPC_URL: stack.chain.rpcUrl,
    CHAIN_ID: String(stack.chain.chainId),
    DEPLOYMENTS_DIR: stack.api.config.deploymentsDir,
    ONCHAIN_SCHEMA: stack.api.config.onchainSchema,
    MAIL_DIR: path.join(dir, "mail"),
    WEBHOOK_POLL_INTERVAL_MS: "200",
  };
}

async function startApiProcess(stack: Stack, dir: string, name: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = spawnLogged(name, process.execPath, ["--import", "tsx", path.join(ROOT, "api", "src", "server.ts")], {
    cwd: ROOT,
    env: processEnv(stack, dir, port),
    logFile: path.join(dir, `${name}.log`),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    `${name} to answer /healthz`,
    async () => {
      if (child.process.exitCode !== null) throw new Error(`it exited; see ${child.logFile}`);
      return (await fetch(`${url}/healthz`)).status === 200 ? true : undefined;
    },
    60_000,
    200,
  );
  return { child, url };
}

function startDispatcherProcess(stack: Stack, dir: string, name: string): Child {
  return spawnLogged(name, process.execPath, ["--import", "tsx", path.join(ROOT, "api", "src", "webhooks", "dispatcher-main.ts")], {
    cwd: ROOT,
    env: processEnv(stack, dir, 0),
    logFile: path.join(dir, `${name}.log`),
  });
}

async function main() {
  await inBenchWorkspace("bench-scale-", async ({ dir, stopLater }) => {
    process.stdout.write("starting Postgres, chain, contracts and indexer…\n");
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: await freePort(), databases: ["bench"], persistent: false });
    stopLater(pg.stop);
    // A block a second: confirmations advance, so product.certified follows each mint.
    const stack = await startStack(pg.url("bench"), { blockIntervalMs: 1000 });
    stopLater(stack.stop);
    const { db } = stack.api;
    const receiver = await startReceiver();
    stopLater(receiver.close);

    const unlimited = { api_calls_per_month: 1_000_000_000, requests_per_hour: 1_000_000_000, certs_per_month: 1_000_000 };
    const { brand, key } = await createBrand(db, { slug: "scale", name: "Scale Brand", uidPrefix: "SCALE", limitOverrides: unlimited });
    await registerV1Endpoint({ db, config: stack.api.config }, brand.id, receiver.url, ["cert.issued", "product.certified"]);
    const product = async (owner: { id: number; slug: string; uidPrefix: string }, i: number) =>
      (await registerProduct(db, owner, { sku: `S-${i}`, name: `Scale item ${i}`, category: "t-shirt", price: 100 })).uid;
    const readUids: string[] = [];
    for (let i = 0; i < 4; i += 1) readUids.push(await product(brand, i));
    const freshUids: string[][] = [];
    for (let phase = 0; phase < 2; phase += 1) {
      const uids: string[] = [];
      for (let i = 0; i < ISSUES; i += 1) uids.push(await product(brand, 1000 * (phase + 1) + i));
      freshUids.push(uids);
    }
    const headersOf = (apiKey: string, slug: string) => ({ Authorization: `Bearer ${apiKey}`, "X-Service-Brand": slug, "Content-Type": "application/json" });
    const headers = headersOf(key.key, brand.slug);

    process.stdout.write("starting 2 webhook dispatchers and the first API process…\n");
    const dispatchers = [startDispatcherProcess(stack, dir, "dispatcher-1"), startDispatcherProcess(stack, dir, "dispatcher-2")];
    for (const child of dispatchers) stopLater(child.stop);
    const apis = [await startApiProcess(stack, dir, "api-1")];
    stopLater(apis[0]!.child.stop);
    // The passports the reads show: minted before the load, and indexed.
    for (const uid of readUids) {
      const res = await fetch(`${apis[0]!.url}/api/v1/certs/issue`, { method: "POST", headers, body: JSON.stringify({ uid }) });
      if (res.status >= 300) throw new Error(`issuing ${uid} for the reads answered ${res.status}: ${await res.text()}`);
    }
    await waitFor("the indexer to have the mints (/readyz)", async () => ((await fetch(`${apis[0]!.url}/readyz`)).status === 200 ? true : undefined), 60_000, 200);
    const issuedOk = new Set<string>(readUids);

    const phases: Phase[] = [];
    for (const [index, apiCount] of [1, 2].entries()) {
      if (apis.length < apiCount) {
        process.stdout.write("starting the second API process…\n");
        const second = await startApiProcess(stack, dir, "api-2");
        stopLater(second.child.stop);
        apis.push(second);
      }
      const bases = apis.map((api) => api.url);
      const pids = {
        api: apis.map((api) => api.child.process.pid!),
        dispatchers: dispatchers.map((child) => child.process.pid!),
        chain: [stack.chain.child.process.pid!],
        indexer: [stack.indexer.process.pid!],
      };
      const sample = (): Record<string, number> => ({
        ...Object.fromEntries(Object.entries(pids).map(([part, list]) => [part, list.reduce((sum, pid) => sum + cpuSeconds(pid), 0)])),
        postgres: postgresCpuSeconds(pg.pid!),
      });
      /** One timed run of `ops`, with the CPU seconds each part used meanwhile. */
      const measured = async (ops: Op[]): Promise<Run> => {
        const before = sample();
        const figures = await runLoad<{ outcomes: Outcome[] }>(WORKER, { bases, ops, headers, connections: CONNECTIONS, durationMs: PHASE_CAP_S * 1000 });
        const after = sample();
        return { figures, cpu: Object.fromEntries(Object.entries(after).map(([part, seconds]) => [part, seconds - before[part]!])) };
      };
      const name = `${apiCount} API + 2 dispatchers`;
      process.stdout.write(`  ${name}: ${READS} reads, then ${ISSUES} issuances, over ${CONNECTIONS} connections…\n`);
      const reads = await measured(Array.from({ length: READS }, (_, i): Op => ({ kind: i % 2 === 0 ? "dpp" : "scan", uid: readUids[i % readUids.length]! })));
      const issues = await measured(freshUids[index]!.map((uid): Op => ({ kind: "issue", uid })));
      for (const outcome of issues.figures.outcomes) if (outcome.status >= 200 && outcome.status < 300) issuedOk.add(outcome.uid);

      // Over-admission: brands with small monthly limits, called from every API process at once.
      const certBrand = await createBrand(db, { slug: `scale-certs-${index}`, name: "Limited certs", uidPrefix: `LC${index}`, limitOverrides: { certs_per_month: CERT_LIMIT } });
      const callBrand = await createBrand(db, { slug: `scale-calls-${index}`, name: "Limited calls", uidPrefix: `LA${index}`, limitOverrides: { api_calls_per_month: CALL_LIMIT } });
      const certUids: string[] = [];
      for (let i = 0; i < HAMMER; i += 1) certUids.push(await product(certBrand.brand, i));
      const callUid = await product(callBrand.brand, 0);
      const other: Record<string, number> = {};
      let certsAdmitted = 0;
      let callsAdmitted = 0;
      await Promise.all([
        ...certUids.map(async (uid, i) => {
          const res = await fetch(`${bases[i % bases.length]}/api/v1/certs/issue`, { method: "POST", headers: headersOf(certBrand.key.key, certBrand.brand.slug), body: JSON.stringify({ uid }) });
          await res.arrayBuffer();
          if (res.status === 201 || res.status === 200) {
            certsAdmitted += 1;
            issuedOk.add(uid);
          } else if (res.status !== 429) other[`certs ${res.status}`] = (other[`certs ${res.status}`] ?? 0) + 1;
        }),
        ...Array.from({ length: 3 * CALL_LIMIT }, async (_, i) => {
          const res = await fetch(`${bases[i % bases.length]}/api/v1/products/${callUid}`, { headers: headersOf(callBrand.key.key, callBrand.brand.slug) });
          await res.arrayBuffer();
          if (res.status === 200) callsAdmitted += 1;
          else if (res.status !== 429) other[`calls ${res.status}`] = (other[`calls ${res.status}`] ?? 0) + 1;
        }),
      ]);
      phases.push({ name, runs: { reads, issuances: issues }, hammer: { certLimit: CERT_LIMIT, certsAdmitted, callLimit: CALL_LIMIT, callsAdmitted, other } });
    }

    const scaleIssued = [...issuedOk].filter((uid) => uid.startsWith("SCALE-"));
    process.stdout.write(`waiting up to ${DELIVERY_WAIT_S} s for every webhook (cert.issued and product.certified of ${scaleIssued.length} issuances)…\n`);
    const expected = scaleIssued.flatMap((uid) => [`cert.issued:${uid}`, `product.certified:${uid}`]);
    const missing = () => expected.filter((key) => !receiver.byEvent.has(key));
    await waitFor("every webhook", async () => (missing().length === 0 ? true : undefined), DELIVERY_WAIT_S * 1000, 250).catch(() => undefined);
    // A moment more, so a second delivery of the last events would be seen too.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const minted = await stack.contracts.passport.queryFilter(stack.contracts.passport.filters.Transfer(ZeroAddress), stack.deployment.startBlock);
    const mintsPerToken = new Map<string, number>();
    for (const log of minted) {
      const tokenId = String((log as { args?: { tokenId?: bigint } }).args?.tokenId);
      mintsPerToken.set(tokenId, (mintsPerToken.get(tokenId) ?? 0) + 1);
    }
    const lost = [...issuedOk].filter((uid) => !mintsPerToken.has(tokenIdOf(uid)));

    const lines: string[] = [];
    const rate = (run: Run) => run.figures.requests / run.figures.seconds;
    const parts = ["api", "postgres", "dispatchers", "chain", "indexer"];
    const header = ["setup", "load", "per s", "p50 ms", "p99 ms", "failed", ...parts.map((part) => `${part} ms`), "all ms"];
    const rows = phases.flatMap((phase) =>
      (["reads", "issuances"] as const).map((kind) => {
        const run = phase.runs[kind];
        const count = Math.max(1, run.figures.outcomes.length);
        const perRequest = (seconds: number) => ((1000 * seconds) / count).toFixed(2);
        const failed = run.figures.outcomes.filter((o) => o.status < 200 || o.status >= 300).length;
        const total = Object.values(run.cpu).reduce((sum, seconds) => sum + seconds, 0);
        return [phase.name, kind, rate(run).toFixed(1), run.figures.p50Ms.toFixed(1), run.figures.p99Ms.toFixed(1), String(failed), ...parts.map((part) => perRequest(run.cpu[part] ?? 0)), perRequest(total)];
      }),
    );
    const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
    const line = (cells: string[]) => cells.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
    lines.push("(… ms: CPU milliseconds per request of each part while the run lasted, from /proc/<pid>/stat)", line(header), ...rows.map(line));
    const [one, two] = phases as [Phase, Phase];
    lines.push(
      "",
      `ratio 2 API / 1 API: reads ${(rate(two.runs.reads) / rate(one.runs.reads)).toFixed(2)}, issuances ${(rate(two.runs.issuances) / rate(one.runs.issuances)).toFixed(2)}`,
      `  This machine has ${os.cpus().length} CPUs, shared by the API processes, the dispatchers, Postgres, the chain, the indexer and the load`,
      "  generator: on 2 cores the ratio shows the overhead of scaling out, not a speed-up. Plan capacity with the CPU",
      "  milliseconds per request of each part (a core gives 1,000 a second).",
    );
    const failedIssues = phases.flatMap((phase) => phase.runs.issuances.figures.outcomes.filter((o) => o.status < 200 || o.status >= 300));
    const statuses = (outcomes: Outcome[]) => Object.entries(outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {})).map(([status, n]) => `${n}× ${status}`).join(", ");
    const counts: Array<[string, number, string]> = [
      ["duplicate mints (Transfers from zero of one token id beyond the first)", [...mintsPerToken.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0), `${minted.length} mints on chain`],
      ["issuances answered 2xx but not minted on chain", lost.length, lost.slice(0, 3).join(" ")],
      ["issuances that failed (non-2xx, within quota)", failedIssues.length, statuses(failedIssues)],
      ...phases.flatMap((phase): Array<[string, number, string]> => [
        [`over-admitted certificates, ${phase.name} (limit ${phase.hammer.certLimit}, ${HAMMER} asked)`, Math.max(0, phase.hammer.certsAdmitted - phase.hammer.certLimit), `${phase.hammer.certsAdmitted} admitted`],
        [`over-admitted API calls, ${phase.name} (limit ${phase.hammer.callLimit}, ${3 * CALL_LIMIT} asked)`, Math.max(0, phase.hammer.callsAdmitted - phase.hammer.callLimit), `${phase.hammer.callsAdmitted} admitted${Object.keys(phase.hammer.other).length > 0 ? `; also ${JSON.stringify(phase.hammer.other)}` : ""}`],
      ]),
      ["double deliveries (a webhook-id received twice)", [...receiver.byDeliveryId.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0), `${receiver.byDeliveryId.size} deliveries`],
      ["double deliveries (one event of one UID under two ids)", [...receiver.byEvent.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0), ""],
      [`events not delivered within ${DELIVERY_WAIT_S} s`, missing().length, missing().slice(0, 3).join(" ")],
    ];
    lines.push("", "correctness (each must be 0):");
    const labelWidth = Math.max(...counts.map(([label]) => label.length));
    for (const [label, count, note] of counts) lines.push(`  ${label.padEnd(labelWidth)}  ${String(count).padStart(3)}${count > 0 ? "  WRONG" : ""}${note ? `  (${note})` : ""}`);
    const wrong = counts.filter(([, count]) => count > 0).length;
    lines.push("", wrong === 0 ? "all correctness counts are 0" : `${wrong} correctness count(s) are not 0: see the logs in ${dir} (kept until exit)`);
    process.stdout.write(`\n${lines.join("\n")}\n`);
    if (wrong > 0) process.exitCode = 1;
  });
}

runBenchmark(main);
