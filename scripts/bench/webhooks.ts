// `npm run bench:webhooks`: webhook deliveries per second from the dispatcher to a local sink, against a plain HTTP
// client posting the same bodies to the same sink with the same concurrency, and the p95 time from enqueue to the
// sink having the delivery. Runs on an embedded Postgres of its own on a free port and stops everything it starts.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { assembleService, type Service } from "../../api/src/assemble";
import { createBrand } from "../../api/src/brands/service";
import { loadConfig } from "../../api/src/config";
import { createLogger } from "../../api/src/logger";
import { registerV1Endpoint } from "../../api/src/webhooks/endpoints";
import { certIssuedPayload } from "../../api/src/webhooks/events";
import { enqueueEvent } from "../../api/src/webhooks/outbox";
import { signatureHeaders } from "../../api/src/webhooks/secrets";
import { freePort, waitFor } from "../lib/processes";
import { startEmbeddedPostgres } from "../lib/postgres";

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 1000);
// The machine may be shared: rounds alternate client and dispatcher, and the medians are compared.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 300);
const LATENCY_RATE_PER_S = Number(process.env.BENCH_LATENCY_RATE ?? 50);
const CONCURRENCY = Number(process.env.WEBHOOK_CONCURRENCY ?? 16);

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function payload(seq: number) {
  const uid = `BENCH-${String(seq).padStart(8, "0")}`;
  return {
    ...certIssuedPayload({
      uid,
      txHash: `0x${"ab".repeat(32)}`,
      tokenId: String(seq),
      networkUrl: `http://127.0.0.1/explorer/tx/0x${"ab".repeat(32)}`,
      certificateUrl: `http://127.0.0.1/dpp-certificate/${uid}`,
      certificatePdfUrl: `http://127.0.0.1/certificates/${uid}.pdf`,
      at: new Date(),
    }),
    seq,
  };
}

/** A sink that answers 200 at once and notes when each sequence number arrived. */
function startSink(): Promise<{ server: http.Server; url: string; arrivals: Map<number, number>; count: () => number }> {
  const arrivals = new Map<number, number>();
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      count += 1;
      const seq = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { seq: number }).seq;
      if (!arrivals.has(seq)) arrivals.set(seq, performance.now());
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sink`, arrivals, count: () => count })),
  );
}

/** The baseline: the same signed bodies POSTed by node:http with a keep-alive agent, CONCURRENCY at a time. */
async function plainClient(url: string, secret: string, bodies: string[]): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const target = new URL(url);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < bodies.length) {
      const i = next++;
      const body = bodies[i]!;
      const headers = signatureHeaders([secret], `msg_${i}`, Math.floor(Date.now() / 1000), body);
      await new Promise<void>((resolve, reject) => {
        const req = http.request(
          { method: "POST", hostname: target.hostname, port: target.port, path: target.pathname, agent, headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
          (res) => {
            res.resume();
            res.on("end", () => resolve());
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return bodies.length / seconds;
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-webhooks-"));
  chmodSync(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: await freePort(), databases: ["bench"], persistent: false });
  const sink = await startSink();
  const config = loadConfig({ SERVICE_MODE: "local", DATABASE_URL: pg.url("bench"), LOG_LEVEL: "silent", WEBHOOK_CONCURRENCY: String(CONCURRENCY) });
  // The dispatcher process as the service assembles it (api/src/assemble.ts), with the dispatch job alone.
  let service: Service | undefined;
  try {
    service = await assembleService(config, { jobs: ["webhook-dispatch"], poolSize: CONCURRENCY + 4, logger: createLogger("silent") });
    const { db } = service.deps;
    const { brand } = await createBrand(db, { slug: "bench", name: "Bench", uidPrefix: "BENCH" });
    const { signingSecret } = await registerV1Endpoint({ db, config }, brand.id, sink.url, ["cert.issued"]);

    const plainRates: number[] = [];
    const dispatcherRates: number[] = [];
    // CPU of this process per delivery (sender and sink; Postgres is another process): steadier than rates when
    // the machine is shared.
    const plainCpu: number[] = [];
    const dispatcherCpu: number[] = [];
    const cpuMicros = (since: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(since);
      return (used.user + used.system) / DELIVERIES;
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      // The plain client: the ceiling of this machine and sink.
      const bodies = Array.from({ length: DELIVERIES }, (_, i) => JSON.stringify(payload(-1 - i - round * DELIVERIES)));
      const plainStart = process.cpuUsage();
      plainRates.push(await plainClient(sink.url, signingSecret, bodies));
      plainCpu.push(cpuMicros(plainStart));

      // The dispatcher on a backlog of DELIVERIES events, enqueued (untimed) in one transaction so that they all
      // become visible at once, at commit.
      const first = round * DELIVERIES;
      sink.arrivals.clear();
      await db.transaction(async (trx) => {
        for (let seq = first; seq < first + DELIVERIES; seq += 1) {
          await enqueueEvent(trx, { brandId: brand.id, type: "cert.issued", payload: payload(seq), dedupeKey: `bench:${seq}` });
        }
      });
      const committedAt = performance.now();
      const dispatcherStart = process.cpuUsage();
      await waitFor("the backlog to be delivered", async () => (sink.arrivals.size >= DELIVERIES ? true : undefined), 600_000, 2);
      dispatcherRates.push(DELIVERIES / ((Math.max(...sink.arrivals.values()) - committedAt) / 1000));
      dispatcherCpu.push(cpuMicros(dispatcherStart));
      await waitFor("the outcomes to be recorded", async () => {
        const open = await db("app.webhook_deliveries").whereNot({ status: "succeeded" }).count<{ count: number }>("* as count").first();
        return Number(open!.count) === 0 ? true : undefined;
      }, 60_000, 20);
    }
    const plainRate = median(plainRates);
    const dispatcherRate = median(dispatcherRates);

    // 3. Latency: events enqueued one per transaction at a steady rate while the dispatcher idles between them.
    const enqueuedAt = new Map<number, number>();
    const base = 1_000_000;
    for (let i = 0; i < LATENCY_EVENTS; i += 1) {
      const seq = base + i;
      await db.transaction(async (trx) => {
        await enqueueEvent(trx, { brandId: brand.id, type: "cert.issued", payload: payload(seq), dedupeKey: `bench:${seq}` });
        enqueuedAt.set(seq, performance.now());
      });
      await new Promise((resolve) => setTimeout(resolve, 1000 / LATENCY_RATE_PER_S));
    }
    await waitFor("the latency events", async () => ([...enqueuedAt.keys()].every((seq) => sink.arrivals.has(seq)) ? true : undefined), 60_000, 5);
    const latencies = [...enqueuedAt].map(([seq, at]) => sink.arrivals.get(seq)! - at).sort((a, b) => a - b);

    const list = (rates: number[]) => rates.map((r) => r.toFixed(0)).join(", ");
    console.log(`webhook dispatcher benchmark (concurrency ${CONCURRENCY}, ${ROUNDS} rounds of ${DELIVERIES} deliveries, ${os.cpus().length} CPUs)`);
    console.log(`  plain HTTP client:    ${plainRate.toFixed(0)} deliveries/s median (rounds: ${list(plainRates)})`);
    console.log(`  dispatcher:           ${dispatcherRate.toFixed(0)} deliveries/s median (rounds: ${list(dispatcherRates)}; claim, sign, POST, record outcome)`);
    console.log(`  ratio:                ${(dispatcherRate / plainRate).toFixed(2)} (target at least 0.5)`);
    console.log(`  CPU per delivery:     plain ${median(plainCpu).toFixed(0)} µs, dispatcher ${median(dispatcherCpu).toFixed(0)} µs (this process: sender and sink; medians)`);
    console.log(`  enqueue → delivered:  p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, max ${latencies[latencies.length - 1]!.toFixed(1)} ms (${LATENCY_EVENTS} events at ${LATENCY_RATE_PER_S}/s)`);
    console.log(`  sink received ${sink.count()} requests in all`);
  } finally {
    await service?.stop();
    sink.server.closeAllConnections();
    await new Promise((resolve) => sink.server.close(resolve));
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
