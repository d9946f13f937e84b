// The operator CLI (`npm run admin`) for tests. `runAdmin` calls its `main` in this process with the environment
// given, as the spawned CLI would run it: the same parsing, commands, output and exit code, without a Node process
// that loads TypeScript for a second or more per command. `spawnAdmin` starts the real entry point, for the tests of
// what only a process shows (the exit code reaching the shell, the database unreachable at start-up).
import { execFile } from "node:child_process";
import path from "node:path";
import { main } from "../../scripts/admin";

export type AdminRun = { code: number; stdout: string; stderr: string };

const ROOT = path.join(__dirname, "..", "..");

/** `npm run admin -- ...args` against DATABASE_URL (and whatever else `env` holds), run in this process. */
export async function runAdmin(args: string[], env: Record<string, string>): Promise<AdminRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(
    args,
    (text) => (stdout += `${text}\n`),
    (text) => (stderr += `${text}\n`),
    { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
  );
  return { code, stdout, stderr };
}

/** The same, as its own process: `node --import tsx scripts/admin.ts ...args`. */
export function spawnAdmin(args: string[], env: Record<string, string>): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/admin.ts", ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}
