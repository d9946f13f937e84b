// Hostile CSV uploads against the real API in this process: a file of about 10 MB built to be expensive (one
// enormous header line, a row of millions of commas, one huge cell, 20,000 long rows) must cost other tenants
// nothing. While each upload is read, refused or imported, /readyz is probed from this same process, so a blocked
// event loop shows as an unanswered probe; the event loop's delay (perf_hooks.monitorEventLoopDelay) and the peak
// memory are measured too, and printed. The bound on a probe (1 s) is a behaviour check, not a benchmark: a
// parser that holds the event loop misses it by tens of seconds. The chain is a JSON-RPC stub on 127.0.0.1 that
// answers the block number at once, so a probe's time is the event loop's, not a dead RPC's retries.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { waitFor } from "../../scripts/lib/processes";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const HEADER = "sku,name,category,price,currency,fabric_type,description,factory_id,fiber_composition,certifications,care_instructions,country_of_manufacture";
/** The import's documented limits (docs/dashboard.md). */
const MAX_BYTES = 10 * 1024 * 1024;
const MAX_ROWS = 20_000;
/** Just under the byte cap: these are refused for what they hold, not for their size. */
const SIZE = MAX_BYTES - 1024;
/**
 * A probe of /readyz slower than this, or this long without one answered, means other tenants were kept waiting.
 * Generous on purpose: this is a stall check, not a benchmark (the figures are printed). The parse that read the
 * whole upload at once held the event loop for 36 s on the wide header; streaming keeps it under 0.6 s even with
 * other test files running beside this one on two cores.
 */
const PROBE_BOUND_MS = 5000;
const PROBE_EVERY_MS = 20;
/** More memory than this for one upload of at most 10 MB means it was not read within its caps. */
const MEMORY_BOUND_MB = 400;

const execFileAsync = promisify(execFile);

/** An upload's answer: its status, its length and its first 4 KB. */
type Answer = { status: number; length: number; text: string };

type Load = { probes: number; slowestProbeMs: number; longestGapMs: number; loopMaxMs: number; loopP99Ms: number; peakGrowthMb: number };

describe("dashboard: hostile CSV uploads cost other tenants nothing", () => {
  let api: InProcessApi;
  let rpc: http.Server;
  let editor: DashboardClient;
  const dir = mkdtempSync(path.join(os.tmpdir(), "hostile-csv-"));
  let files = 0;
  let brands = 0;
  const figures: Array<{ upload: string } & Load> = [];

  before(async function () {
    this.timeout(120_000);
    rpc = await chainStub();
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("dashboard_imports_hostile"), RPC_URL: `http://127.0.0.1:${(rpc.address() as AddressInfo).port}` });
    const brand = await createBrand(api.db, { slug: "hostile-a", name: "Hostile A", uidPrefix: "HOS", plan: "growth" });
    editor = await dashboardClient(api.url, api.db, brand.brand.id, "editor");
    // Warmed up as a running API is: the import's modules loaded, a probe answered, an upload refused and one taken.
    expect((await fetch(`${api.url}/readyz`)).status).to.be.oneOf([200, 503]);
    expect((await upload(saved("sku,colour\nA,red\n"))).status).to.equal(422);
    expect((await upload(saved(`${HEADER}\nWARM-1,Tee,t-shirt,1,,,,,,,,\n`))).status).to.equal(202);
  });
  after(async () => {
    if (figures.length > 0) {
      console.log(`    CSV import under hostile uploads (event-loop delay by monitorEventLoopDelay, resolution 10 ms; /readyz probed every ${PROBE_EVERY_MS} ms):`);
      console.table(figures.map((f) => ({ ...f, loopMaxMs: round(f.loopMaxMs), loopP99Ms: round(f.loopP99Ms), slowestProbeMs: round(f.slowestProbeMs), longestGapMs: round(f.longestGapMs) })));
    }
    await api?.close();
    rpc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Uploads `csv` as the editor, from a process of its own, as another tenant would: this process, the API's, then
   * does only the API's work (building and sending 10 MB would be this process's own load, not the API's).
   */
  async function upload(file: string, as = editor): Promise<Answer> {
    const script = `
      const body = require("node:fs").readFileSync(process.env.FILE);
      fetch(process.env.URL, { method: "POST", headers: { "Content-Type": "text/csv", Cookie: process.env.COOKIE, "X-CSRF-Token": process.env.CSRF }, body })
        .then(async (res) => {
          const text = await res.text();
          process.stdout.write(JSON.stringify({ status: res.status, length: text.length, text: text.slice(0, 4096) }));
        })
        .catch((error) => { console.error(error); process.exit(1); });`;
    const env = { ...process.env, FILE: file, URL: `${api.url}/api/dashboard/imports`, COOKIE: as.cookie, CSRF: as.csrf };
    const { stdout } = await execFileAsync(process.execPath, ["-e", script], { env, maxBuffer: 1024 * 1024 });
    return JSON.parse(stdout) as Answer;
  }

  /** An editor of a brand of its own, so that no upload waits for another's import. */
  async function anotherEditor(): Promise<DashboardClient> {
    const slug = `hostile-${++brands}`;
    const created = await createBrand(api.db, { slug, name: `Hostile ${brands}`, uidPrefix: `HOS${brands}`, plan: "growth" });
    return dashboardClient(api.url, api.db, created.brand.id, "editor");
  }

  /** The file to upload, written before the measuring starts. */
  function saved(csv: string): string {
    const file = path.join(dir, `upload-${files++}.csv`);
    writeFileSync(file, csv);
    return file;
  }

  /** Runs `work` while probing /readyz and measuring the event loop's delay and the process's peak memory. */
  async function underLoad<T>(name: string, work: () => Promise<T>): Promise<T> {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    const peakBefore = process.resourceUsage().maxRSS;
    const answered: number[] = [];
    const latencies: number[] = [];
    let done = false;
    histogram.enable();
    const prober = (async () => {
      answered.push(performance.now());
      while (!done) {
        const sent = performance.now();
        const res = await fetch(`${api.url}/readyz`);
        await res.arrayBuffer();
        const now = performance.now();
        latencies.push(now - sent);
        answered.push(now);
        await sleep(PROBE_EVERY_MS);
      }
    })();
    let result: T;
    try {
      result = await work();
    } finally {
      done = true;
      await prober;
      histogram.disable();
    }
    const load: Load = {
      probes: latencies.length,
      slowestProbeMs: Math.max(...latencies),
      longestGapMs: Math.max(...answered.slice(1).map((at, i) => at - answered[i]!)),
      loopMaxMs: histogram.max / 1e6,
      loopP99Ms: histogram.percentile(99) / 1e6,
      peakGrowthMb: Math.round((process.resourceUsage().maxRSS - peakBefore) / 1024),
    };
    figures.push({ upload: name, ...load });
    expect(load.probes, "/readyz was probed while the upload was handled").to.be.greaterThan(0);
    expect(load.slowestProbeMs, `${name}: the slowest /readyz probe (ms)`).to.be.below(PROBE_BOUND_MS);
    expect(load.longestGapMs, `${name}: the longest time without a /readyz answer (ms)`).to.be.below(PROBE_BOUND_MS);
    expect(load.peakGrowthMb, `${name}: growth of the process's peak memory (MB)`).to.be.below(MEMORY_BOUND_MB);
    return result;
  }

  /** The upload's answer: 422 VALIDATION_ERROR, said briefly (a few details, a short body). */
  function refusedBriefly({ status, length, text }: Answer): Array<{ field: string; problem: string }> {
    expect(status, text.slice(0, 300)).to.equal(422);
    expect(length, "the answer is short").to.be.below(4096);
    const body = JSON.parse(text) as { error: { code: string; details: Array<{ field: string; problem: string }> } };
    expect(body.error.code).to.equal("VALIDATION_ERROR");
    expect(body.error.details.length).to.be.within(1, 10);
    return body.error.details;
  }

  it("one enormous header line: more than a million distinct unknown columns", async function () {
    this.timeout(180_000);
    let header = "sku,name,category,price";
    const cells: string[] = [];
    for (let i = 0; header.length + cells.length * 8 < SIZE; i += 1) cells.push(`col${String(i).padStart(4, "0")}`);
    header = `${header},${cells.join(",")}`.slice(0, SIZE);
    const file = saved(`${header}\nA,B,t-shirt,1\n`);
    const uploader = await anotherEditor();
    const details = refusedBriefly(await underLoad("header of 1.1M columns", () => upload(file, uploader)));
    expect(details.map((d) => d.problem).join(" ")).to.match(/column/);
  });

  it("a row of millions of commas", async function () {
    this.timeout(180_000);
    const row = `A,B,t-shirt,1${",".repeat(SIZE - HEADER.length - 20)}`;
    const file = saved(`${HEADER}\n${row}\n`);
    const uploader = await anotherEditor();
    const details = refusedBriefly(await underLoad("row of 10M commas", () => upload(file, uploader)));
    expect(details[0]!.problem).to.match(/has more than \d+ columns on line 2/);
  });

  it("one cell of 10 MB", async function () {
    this.timeout(180_000);
    const row = `A,B,t-shirt,1,,,"${"x".repeat(SIZE - HEADER.length - 30)}"`;
    const file = saved(`${HEADER}\n${row}\n`);
    const uploader = await anotherEditor();
    const details = refusedBriefly(await underLoad("cell of 10 MB", () => upload(file, uploader)));
    expect(details[0]!.problem).to.match(/has a row longer than \d+ bytes on line 2/);
  });

  it("20,000 rows of 10 MB in all, read and imported while other requests are answered", async function () {
    this.timeout(300_000);
    const description = "Heavy jersey, ".repeat(31).trim();
    const rows = Array.from({ length: MAX_ROWS }, (_, i) => `LOAD-${i},Load tee ${i},t-shirt,${(i % 900) + 100},BDT,jersey,"${description}",,cotton:100,,,BD`);
    const content = `${HEADER}\n${rows.join("\n")}\n`;
    expect(Buffer.byteLength(content)).to.be.within(MAX_BYTES * 0.9, MAX_BYTES);
    const file = saved(content);
    const job = await underLoad("20,000 long rows, imported", async () => {
      const { status, text } = await upload(file);
      if (status !== 202) return { status, text: text.slice(0, 300) };
      const body = JSON.parse(text) as { data: { id: string } };
      return waitFor(
        "the import to finish",
        async () => {
          const read = (await json(await editor.call(`/api/dashboard/imports/${body.data.id}`))).data;
          return read.status === "running" ? undefined : read;
        },
        240_000,
        200,
      );
    });
    expect(job).to.include({ status: "done", imported: MAX_ROWS, failed: 0 });
  });
});

/** A JSON-RPC server that answers eth_blockNumber (and anything else, with null) at once, single or batched. */
async function chainStub(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const answer = (call: { id: number; method: string }) => ({ jsonrpc: "2.0", id: call.id, result: call.method === "eth_blockNumber" ? "0x2a" : null });
      const parsed = JSON.parse(body) as { id: number; method: string } | Array<{ id: number; method: string }>;
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
