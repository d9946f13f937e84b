// Runs the verification script a certificate page prints (api/src/pages/certificate.ts), as a reader would: the
// script's text taken from the page, its RPC placeholder filled in, with our node_modules standing in for its
// `npm install`. Answers what it printed ("authentic" or "MISMATCH").
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";

const ROOT = path.join(__dirname, "..", "..");

export async function runPrintedVerifyScript(pageHtml: string, rpcUrl: string, env: Record<string, string> = {}): Promise<string> {
  const printed = /<pre><code>([\s\S]*?)<\/code><\/pre>/.exec(pageHtml)![1]!;
  const script = printed
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&")
    .replace(/<RPC URL of [^>]+>/, rpcUrl);
  expect(script).to.include(rpcUrl, "the script names the RPC placeholder");
  const dir = mkdtempSync(path.join(os.tmpdir(), "verify-"));
  try {
    symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    writeFileSync(path.join(dir, "verify.mjs"), script);
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ["verify.mjs"], { cwd: dir, timeout: 60_000, env: { ...process.env, ...env } }, (error, out, err) => (error ? reject(new Error(err || error.message)) : resolve(out))),
    );
    return stdout.trim();
  } finally {
    // Unlink the symlink first, so cleaning up can never reach into the real node_modules.
    rmSync(path.join(dir, "node_modules"), { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}
