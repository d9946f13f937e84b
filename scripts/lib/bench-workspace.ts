// What every benchmark that starts its own services shares: a temporary directory, an embedded Postgres of its own
// on a free port, and stopping everything it started (in reverse order) when it ends, fails or gets Ctrl-C.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { postgresCpuSeconds } from "./proc-cpu";
import { startEmbeddedPostgres } from "./postgres";
import { freePort } from "./processes";

export type BenchWorkspace = {
  dir: string;
  /** Stops `stop` when the benchmark ends; the last registered stops first. */
  stopLater: (stop: () => Promise<void>) => void;
  /** Starts the benchmark's own embedded Postgres (data in `dir`) and returns the URL of its database "bench". */
  postgres: () => Promise<string>;
  /** CPU seconds the Postgres started by `postgres` has used so far (its server and every backend), 0 before. */
  postgresCpuSeconds: () => number;
};

export async function inBenchWorkspace(prefix: string, body: (workspace: BenchWorkspace) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  // The embedded Postgres runs as another user, which must be able to enter the directory.
  chmodSync(dir, 0o755);
  const stoppers: Array<() => Promise<void>> = [];
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const stop of stoppers.reverse()) await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    })());
  // Ctrl-C stops Postgres, the chain and the indexer too, not only this process.
  const onSignal = () => void stopAll().then(() => process.exit(130));
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, onSignal);
  let postmaster: number | undefined;
  const workspace: BenchWorkspace = {
    dir,
    stopLater: (stop) => void stoppers.push(stop),
    postgres: async () => {
      const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: await freePort(), databases: ["bench"], persistent: false });
      stoppers.push(pg.stop);
      postmaster = pg.pid;
      return pg.url("bench");
    },
    postgresCpuSeconds: () => (postmaster === undefined ? 0 : postgresCpuSeconds(postmaster)),
  };
  try {
    await body(workspace);
  } finally {
    await stopAll();
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, onSignal);
  }
}

/** Runs a benchmark's main function as the process's work: a failure prints its error and exits 1. */
export function runBenchmark(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
