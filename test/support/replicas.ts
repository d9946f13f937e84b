// Issuer replicas as child processes for the crash matrix: the entry point (issuer-replica.ts) is bundled once into
// plain JavaScript, each replica is spawned with its own environment (CRASH_AT, CRASH_AFTER) and log file, and its
// death (the crash point's SIGKILL) is observed through its exit.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { stopProcess } from "../../scripts/lib/processes";
import type { IssueAnswer } from "./issuer-replica";

const ROOT = path.resolve(__dirname, "..", "..");

/**
 * Bundles a test process's TypeScript entry (a file of test/support) with esbuild, the compiler tsx itself runs on, so
 * always installed, into one CommonJS file, packages left external; returns its path. A replica spawned from the bundle
 * starts without loading TypeScript (`--import tsx` costs a second or more of CPU per process on two cores). The bundle
 * is inside the repository, so it resolves its packages from node_modules; git ignores it.
 */
export async function bundleTestEntry(name: "issuer-replica" | "bulk-replica"): Promise<string> {
  const requireFromTsx = createRequire(require.resolve("tsx/package.json"));
  const esbuild = requireFromTsx("esbuild") as typeof import("esbuild");
  const outfile = path.join(ROOT, "node_modules", ".cache", "passport-registry", `${name}.cjs`);
  await esbuild.build({
    entryPoints: [path.join(__dirname, `${name}.ts`)],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    packages: "external",
    outfile,
    logLevel: "warning",
    absWorkingDir: ROOT,
  });
  return outfile;
}

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type Replica = {
  name: string;
  pid: number;
  /** Resolves with the replica's URL once it listens; rejects if it exits first. */
  ready: Promise<string>;
  exited: Promise<Exit>;
  alive: () => boolean;
  /** POST /issue for each UID at once; a request cut by the replica's death answers `{ ok: false, code: "CUT" }`. */
  issue: (brandSlug: string, uids: string[]) => Promise<IssueAnswer[]>;
  stop: () => Promise<void>;
};

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export function spawnReplica(bundle: string, name: string, env: Record<string, string>, logFile: string): Replica {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: "a" });
  const child = spawn(process.execPath, [bundle], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  child.stderr.pipe(log, { end: false });
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      log.end();
      resolve({ code, signal });
    }),
  );
  const ready = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = /READY (\d+)/.exec(out);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    });
    void exited.then((exit) => reject(new Error(`replica ${name} exited before it was ready (${exit.signal ?? exit.code}); see ${logFile}`)));
  });
  ready.catch(() => undefined);
  const issueOne = async (url: string, brandSlug: string, uid: string): Promise<IssueAnswer> => {
    try {
      const res = await fetch(`${url}/issue`, { method: "POST", body: JSON.stringify({ brand_slug: brandSlug, uid }), signal: AbortSignal.timeout(120_000) });
      return (await res.json()) as IssueAnswer;
    } catch (error) {
      return { ok: false, status: 0, uid, code: "CUT", message: String(error) };
    }
  };
  return {
    name,
    pid: child.pid!,
    ready,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    issue: async (brandSlug, uids) => {
      const url = await ready;
      return Promise.all(uids.map((uid) => issueOne(url, brandSlug, uid)));
    },
    stop: () => stopProcess(child, 3000),
  };
}
