// The passport archive as a reader meets it: written by `scripts/export.ts` as its own process, unpacked with tar,
// checked by its own verify script with node, against the shared stack's chain and nothing else of ours.
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SeededStack } from "./shared-stack";

const REPO = path.join(__dirname, "..", "..");

export type Run = { code: number; stdout: string; stderr: string };

/** Runs a program in the repository with a bare environment plus `env`; resolves with its exit code and output. */
export function run(command: string, args: string[], env: Record<string, string>, timeout = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: REPO, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.tmpdir(), ...env }, timeout }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** `npm run export -- --brand <slug> --out <file>`, configured as the stack's API is. */
export function exportArchive(stack: SeededStack, brandSlug: string, file: string): Promise<Run> {
  const { config } = stack.api;
  return run(process.execPath, ["--import", "tsx", "scripts/export.ts", "--brand", brandSlug, "--out", file], {
    SERVICE_MODE: "local",
    LOG_LEVEL: "silent",
    DATABASE_URL: config.databaseUrl,
    RPC_URL: stack.chain.rpcUrl,
    CHAIN_ID: String(config.chainId),
    DEPLOYMENTS_DIR: config.deploymentsDir,
    ONCHAIN_SCHEMA: config.onchainSchema,
    PUBLIC_BASE_URL: config.publicBaseUrl,
  });
}

/** Unpacks the archive into `dir` and returns its top folder, or undefined when tar failed. */
export async function unpackArchive(file: string, dir: string, brandSlug: string): Promise<string | undefined> {
  if ((await run("tar", ["xzf", file, "-C", dir], {})).code !== 0) return undefined;
  const folder = readdirSync(dir).find((name) => name.startsWith(`passport-archive-${brandSlug}-`));
  return folder === undefined ? undefined : path.join(dir, folder);
}

/** The archive's verify script against the stack's chain; it finds ethers and canonicalize as after `npm install`. */
export function verifyArchive(stack: SeededStack, root: string, extraArgs: string[] = []): Promise<Run> {
  return run(process.execPath, [path.join(root, "verify", "verify.js"), "--rpc", stack.chain.rpcUrl, ...extraArgs], { NODE_PATH: path.join(REPO, "node_modules") });
}
