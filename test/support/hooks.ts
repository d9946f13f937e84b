// Mocha fixtures for the whole run: one real Postgres (embedded on a free port in a temporary directory, or
// TEST_DATABASE_URL's server) with a template database migrated once, a fresh copy of it per test file, and each
// file's wall time. They work the same serially and under --parallel, where every worker is a process of its own:
// the global fixtures run once in mocha's main process and hand the server to the workers through the environment.
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDb } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { freePort } from "../../scripts/lib/processes";
import { NON_DURABLE_SETTINGS, startEmbeddedPostgres, type EmbeddedDb } from "../../scripts/lib/postgres";

/** The Postgres server the tests use, with the migrated template database; set by the global setup. */
const SERVER_ENV = "PASSPORT_TEST_PG_URL";
const TEMPLATE_ENV = "PASSPORT_TEST_TEMPLATE_DB";
/** Where each test file appends its wall time (one JSON line per file); read back by the global teardown. */
const TIMES_ENV = "PASSPORT_TEST_TIMES_FILE";

let embedded: EmbeddedDb | undefined;
let workDir: string | undefined;
let counter = 0;
let fileStartedAt = 0;
let fileCpuAtStart = process.cpuUsage();

// Ctrl-C or a CI time-out: exit normally, so the 'exit' handler of scripts/lib/processes.ts kills the chain and
// indexer children and that of scripts/lib/postgres.ts stops the Postgres server.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

const inWorker = () => process.env.MOCHA_WORKER_ID !== undefined;

export async function mochaGlobalSetup(): Promise<void> {
  workDir = mkdtempSync(path.join(os.tmpdir(), "passport-registry-test-"));
  // As root, Postgres runs as its own system user, who must be able to enter the directory (if TMPDIR is private
  // all the same, startEmbeddedPostgres moves the cluster to its cache).
  chmodSync(workDir, 0o755);
  let server: URL;
  if (process.env.TEST_DATABASE_URL) {
    server = new URL(process.env.TEST_DATABASE_URL);
  } else {
    // Non-durable: the cluster lives for one run, and commits that wait for the disk were time the suite spent idle.
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(workDir, "pg"),
      port: await freePort(),
      databases: [],
      persistent: false,
      settings: NON_DURABLE_SETTINGS,
    });
    server = new URL(embedded.url("postgres"));
  }
  // Migrating costs about a second a database; copying the migrated template costs a few milliseconds.
  const template = `test_template_${process.pid}`;
  await createDatabase(server, template);
  const db = createDb(databaseUrl(server, template), 2);
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }
  process.env[SERVER_ENV] = server.toString();
  process.env[TEMPLATE_ENV] = template;
  process.env[TIMES_ENV] = path.join(workDir, "file-times.jsonl");
}

export async function mochaGlobalTeardown(): Promise<void> {
  const server = process.env[SERVER_ENV];
  const template = process.env[TEMPLATE_ENV];
  if (server && template && !embedded) {
    // On a server of TEST_DATABASE_URL's the template is ours to remove; the per-file databases stay for a look.
    await adminQuery(new URL(server), `DROP DATABASE IF EXISTS "${template}"`).catch(() => undefined);
  }
  printSlowestFiles(Number(process.env.TEST_SLOWEST_FILES ?? 10));
  await embedded?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}

export const mochaHooks = {
  // Root hooks run once per file under --parallel (each file is its own root suite there) and once per run
  // serially, where the run is usually one file.
  beforeAll() {
    fileStartedAt = Date.now();
    fileCpuAtStart = process.cpuUsage();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    // A file with several top-level describes is several suites of one file.
    const files = [...new Set((this.test?.parent?.suites ?? []).map((suite) => suite.file).filter((file): file is string => Boolean(file)))];
    const timesFile = process.env[TIMES_ENV];
    if (timesFile && files.length > 0) {
      const file = files.length === 1 ? path.relative(process.cwd(), files[0]) : `${files.length} files in one process`;
      const cpu = process.cpuUsage(fileCpuAtStart);
      appendFileSync(timesFile, `${JSON.stringify({ file, ms: Date.now() - fileStartedAt, cpuMs: Math.round((cpu.user + cpu.system) / 1000) })}\n`);
    }
    // A worker keeps its shared stack for the next file it is given and takes it down when it exits; a serial run
    // ends here. Required, not imported at the top: shared-stack imports this module for createTestDatabase.
    if (!inWorker()) {
      const { stopSharedStack } = require("./shared-stack") as typeof import("./shared-stack");
      await stopSharedStack();
    }
  },
};

/**
 * A new database for one test file, with every migration applied (a copy of the run's template), and its URL.
 * `empty` gives a database without the schema, for tests of the migrations themselves.
 */
export async function createTestDatabase(label: string, options: { empty?: boolean } = {}): Promise<string> {
  const serverUrl = process.env[SERVER_ENV];
  const template = process.env[TEMPLATE_ENV];
  if (!serverUrl || !template) throw new Error("test Postgres is not running (run mocha with --require test/support/hooks.ts)");
  counter += 1;
  const name = `test_${label.replace(/[^a-z0-9]/gi, "_").toLowerCase()}_${process.pid}_${counter}`.slice(0, 63);
  const server = new URL(serverUrl);
  await createDatabase(server, name, options.empty ? undefined : template);
  return databaseUrl(server, name);
}

async function createDatabase(server: URL, name: string, template?: string): Promise<void> {
  await adminQuery(server, `DROP DATABASE IF EXISTS "${name}"`);
  // Two workers copying the template at the same instant are fine; a copy refused because something else is
  // connected to the template (never this suite) would be retried, briefly.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await adminQuery(server, template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code === "55006";
      if (!busy || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function adminQuery(server: URL, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

function databaseUrl(server: URL, name: string): string {
  const url = new URL(server.toString());
  url.pathname = `/${name}`;
  return url.toString();
}

function printSlowestFiles(count: number): void {
  const timesFile = process.env[TIMES_ENV];
  let lines: string[];
  try {
    lines = readFileSync(timesFile ?? "", "utf8").trim().split("\n").filter(Boolean);
  } catch {
    return;
  }
  const times = lines.map((line) => JSON.parse(line) as { file: string; ms: number; cpuMs: number }).sort((a, b) => b.ms - a.ms);
  if (times.length < 2) return;
  console.log(`\n  the ${Math.min(count, times.length)} slowest of ${times.length} test files (wall time, setup included; CPU of the mocha worker alone):`);
  for (const { file, ms, cpuMs } of times.slice(0, count)) console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${`cpu ${(cpuMs / 1000).toFixed(1)} s`.padStart(11)}  ${file}`);
}
