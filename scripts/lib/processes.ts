// Child processes of the local stack: spawned with their output in a log file, stopped by PID with a bounded wait.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export type Child = { name: string; process: ChildProcess; logFile: string; stop: () => Promise<void> };

// Children still running when this process exits are killed with it (on an uncaught error, process.exit, or a
// signal that a handler turns into an exit), so a failed test or benchmark run leaves no indexer or chain behind.
const running = new Set<ChildProcess>();
/** Temporary folders to remove at exit if nobody removed them before (a mocha worker's shared stack is never stopped). */
const workDirs = new Set<string>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
  for (const dir of workDirs) removeWorkDir(dir);
});

export function spawnLogged(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string },
): Child {
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: "a" });
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  running.add(child);
  child.once("exit", () => {
    running.delete(child);
    log.end();
  });
  return { name, process: child, logFile: options.logFile, stop: () => stopProcess(child) };
}

/** `signal` (SIGTERM unless said), then SIGKILL after `graceMs`; resolves when the process has exited. */
export function stopProcess(child: ChildProcess, graceMs = 5000, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill(signal);
  });
}

/**
 * Removes the temporary folder a stack or test kept its processes' logs in, once they are stopped, so runs leave
 * nothing behind in the temporary directory; `KEEP_STACK_LOGS=1` keeps it, to read the logs a failure points to.
 */
export function removeWorkDir(dir: string): void {
  workDirs.delete(dir);
  if (process.env.KEEP_STACK_LOGS === "1") return;
  rmSync(dir, { recursive: true, force: true });
}

/** Marks `dir` (made by the caller) to be removed when this process exits, if removeWorkDir has not been called. */
export function removeWorkDirAtExit(dir: string): void {
  workDirs.add(dir);
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Whether something already listens on 127.0.0.1:`port`. */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Polls `probe` until it returns a value, up to `timeoutMs`; fails with `what` and the last error. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : "";
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
}
