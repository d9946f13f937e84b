// Mocha root hooks: one real Postgres for the whole run (embedded on a free port in a temporary directory, or
// TEST_DATABASE_URL's server), and a fresh database per test file.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../../scripts/lib/processes";
import { startEmbeddedPostgres, type EmbeddedDb } from "../../scripts/lib/postgres";

let embedded: EmbeddedDb | undefined;
let embeddedParent: string | undefined;

// Ctrl-C or a CI time-out: exit normally, so the 'exit' handler of scripts/lib/processes.ts kills the chain and
// indexer children and that of scripts/lib/postgres.ts stops the Postgres server.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
let serverUrl: URL | undefined;
let counter = 0;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    if (process.env.TEST_DATABASE_URL) {
      serverUrl = new URL(process.env.TEST_DATABASE_URL);
      return;
    }
    const parent = mkdtempSync(path.join(os.tmpdir(), "passport-registry-test-"));
    embeddedParent = parent;
    // As root, Postgres runs as its own system user, who must be able to enter the directory (if TMPDIR is private
    // all the same, startEmbeddedPostgres moves the cluster to its cache).
    chmodSync(parent, 0o755);
    const dataDir = path.join(parent, "pg");
    embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), databases: [], persistent: false });
    serverUrl = new URL(embedded.url("postgres"));
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    // Required here, not imported at the top: shared-stack imports this module for createTestDatabase. require, not
    // import(): a dynamic import loads a second, ESM instance of the module, whose stack was never started.
    const { stopSharedStack } = require("./shared-stack") as typeof import("./shared-stack");
    await stopSharedStack();
    await embedded?.stop();
    if (embeddedParent) rmSync(embeddedParent, { recursive: true, force: true });
  },
};

/** Creates an empty database on the test server and returns its URL. */
export async function createTestDatabase(label: string): Promise<string> {
  if (!serverUrl) throw new Error("test Postgres is not running (root hook missing?)");
  counter += 1;
  const name = `test_${label.replace(/[^a-z0-9]/gi, "_").toLowerCase()}_${process.pid}_${counter}`;
  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl.toString());
  url.pathname = `/${name}`;
  return url.toString();
}
