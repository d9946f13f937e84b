// `npm run bench:dashboard`: what the dashboard costs a browser on its first load (HTML, JS and CSS, as sent gzipped)
// and how fast a CSV import of 5,000 products runs (no minting), against an API and embedded Postgres it starts itself.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { createBrand } from "../../api/src/brands/service";
import { startInProcessApi, type InProcessApi } from "../lib/api-process";
import { inBenchWorkspace, runBenchmark } from "../lib/bench-workspace";
import { freePort } from "../lib/processes";
import { productCsv } from "../lib/product-csv";
import { dashboardClient, type DashboardClient } from "../../test/support/dashboard";

const ROOT = path.join(__dirname, "..", "..");
const ROWS = 5000;
const ROUNDS = 3;
/** Goals of issue 11. */
const GOALS = { firstLoadKb: 200, importRowsPerSecond: 500 };

/** GET with Accept-Encoding gzip, returning the bytes as they crossed the wire (fetch would decompress them). */
function wireGet(url: string, cookie?: string): Promise<{ status: number; bytes: number; encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { "Accept-Encoding": "gzip", ...(cookie ? { Cookie: cookie } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, bytes: body.length, encoding: res.headers["content-encoding"], body });
      });
    });
    req.on("error", reject);
  });
}

/** The first load of /dashboard: the page and every script and stylesheet it names (modulepreloads included). */
async function firstLoad(api: InProcessApi) {
  const page = await wireGet(`${api.url}/dashboard`);
  if (page.status !== 200) throw new Error(`GET /dashboard answered ${page.status}`);
  const html = (page.encoding === "gzip" ? (await import("node:zlib")).gunzipSync(page.body) : page.body).toString("utf8");
  const urls = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)].map((m) => m[1]!).filter((u) => /\.(?:js|css)$/.test(u));
  const files = [{ url: "/dashboard", bytes: page.bytes }];
  for (const url of urls) {
    const file = await wireGet(new URL(url, api.url).toString());
    if (file.status !== 200) throw new Error(`${url} answered ${file.status}`);
    files.push({ url, bytes: file.bytes });
  }
  return files;
}

export type ImportBench = { rows: number; seconds: number; rowsPerSecond: number; imported: number; failed: number };

/** Uploads `csv` as `client` and polls the import until it ends; the time is from the upload to the end. */
export async function benchImport(baseUrl: string, client: Pick<DashboardClient, "call">, csv: string): Promise<ImportBench> {
  const started = performance.now();
  const upload = await client.call("/api/dashboard/imports", { method: "POST", headers: { "Content-Type": "text/csv" }, body: csv });
  if (upload.status !== 202) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
  const { id } = ((await upload.json()) as { data: { id: string } }).data;
  for (;;) {
    const res = await client.call(`/api/dashboard/imports/${id}`);
    const job = ((await res.json()) as { data: { status: string; total: number; imported: number; failed: number } }).data;
    if (job.status !== "running") {
      const seconds = (performance.now() - started) / 1000;
      if (job.status !== "done") throw new Error(`import ${id} ended ${job.status} at ${baseUrl}`);
      return { rows: job.total, seconds, rowsPerSecond: job.total / seconds, imported: job.imported, failed: job.failed };
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, "dashboard", "dist", "index.html"))) {
    console.log("building the dashboard (npm run build --workspace dashboard)…");
    execFileSync("npm", ["run", "build", "--workspace", "dashboard"], { cwd: ROOT, stdio: "inherit" });
  }
  await inBenchWorkspace("bench-dashboard-", async ({ dir, postgres, stopLater }) => {
    console.log("starting embedded Postgres and the API (no chain: nothing here mints)…");
    const api = await startInProcessApi({ DATABASE_URL: await postgres(), RPC_URL: `http://127.0.0.1:${await freePort()}`, MAIL_DIR: path.join(dir, "mail") });
    stopLater(api.close);

    const files = await firstLoad(api);
    const total = files.reduce((sum, f) => sum + f.bytes, 0);
    console.log("\nFirst load of /dashboard (bytes on the wire, gzip):");
    for (const file of files) console.log(`  ${(file.bytes / 1024).toFixed(1).padStart(7)} KB  ${file.url}`);
    console.log(`  ${(total / 1024).toFixed(1).padStart(7)} KB  total (goal < ${GOALS.firstLoadKb} KB): ${total / 1024 < GOALS.firstLoadKb ? "met" : "NOT MET"}`);

    console.log(`\nCSV import of ${ROWS.toLocaleString("en-US")} products, ${ROUNDS} rounds (upload to last row stored, no minting):`);
    const { brand } = await createBrand(api.db, { slug: "bench-import", name: "Bench Import", uidPrefix: "BIMP" });
    const client = await dashboardClient(api.url, api.db, brand.id, "editor");
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const csv = productCsv(ROWS, `BENCH${round}`);
      const result = await benchImport(api.url, client, csv);
      if (result.imported !== ROWS) throw new Error(`round ${round + 1} imported ${result.imported} of ${ROWS} rows`);
      rates.push(result.rowsPerSecond);
      console.log(`  round ${round + 1}: ${(Buffer.byteLength(csv) / 1024).toFixed(0)} KB, ${result.imported} imported in ${result.seconds.toFixed(2)} s = ${Math.round(result.rowsPerSecond)} rows/s`);
    }
    const median = [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)]!;
    console.log(`  median ${Math.round(median)} rows/s (goal ≥ ${GOALS.importRowsPerSecond}): ${median >= GOALS.importRowsPerSecond ? "met" : "NOT MET"}`);
  });
}

if (require.main === module) runBenchmark(main);
