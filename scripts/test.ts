// `npm test`: the whole suite. Mocha (the API, end-to-end and browser tests, in parallel workers: .mocharc.js) runs
// side by side with the static checks and the contract tests: its workers spend much of their time waiting on chains,
// indexers, browsers and timers, and the checks fill those gaps (about a minute less than running them first; the
// contracts are compiled by `npm install` already). Mocha's output is live; each check's is printed whole after
// mocha's. Ends with each phase's wall time, the slowest test files (printed by mocha's global teardown) and one
// closing count line.
import { spawn } from "node:child_process";
import path from "node:path";

type Phase = { name: string; command: string; args: string[] };
type Result = { name: string; seconds: number; code: number; passed: number; failed: number; pending: number };

const ROOT = path.resolve(__dirname, "..");
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

const CHECKS: Phase[] = [
  { name: "typecheck", command: NPM, args: ["run", "--silent", "typecheck"] },
  { name: "lint", command: NPM, args: ["run", "--silent", "lint"] },
  { name: "contracts", command: NPM, args: ["run", "--silent", "test:contracts"] },
];
const MOCHA: Phase = { name: "mocha", command: NPM, args: ["run", "--silent", "test:api"] };

type Finished = Result & { output: string };

/** Runs `phase`; its output is streamed live, or held (so side-by-side runs do not mix) and returned. */
function run(phase: Phase, live: boolean): Promise<Finished> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(phase.command, phase.args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    const chunks: Buffer[] = [];
    const collect = (chunk: Buffer, stream: NodeJS.WriteStream) => {
      chunks.push(chunk);
      if (live) stream.write(chunk);
    };
    child.stdout.on("data", (chunk: Buffer) => collect(chunk, process.stdout));
    child.stderr.on("data", (chunk: Buffer) => collect(chunk, process.stderr));
    child.once("close", (code, signal) => {
      const output = Buffer.concat(chunks).toString("utf8");
      if (!live) console.log(`── ${phase.name} ended in ${((Date.now() - started) / 1000).toFixed(0)} s (exit ${code ?? signal}); its output follows mocha's`);
      // Mocha's closing lines (hardhat test is mocha too): "852 passing (5m)", "2 failing", "3 pending".
      const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, "m").exec(output)?.[1] ?? 0);
      resolve({
        name: phase.name,
        seconds: (Date.now() - started) / 1000,
        code: code ?? (signal ? 1 : 0),
        passed: count("passing"),
        failed: count("failing"),
        pending: count("pending"),
        output: live ? "" : output,
      });
    });
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(`running ${[MOCHA, ...CHECKS].map((phase) => phase.name).join(", ")} side by side …`);
  const results = await Promise.all([...CHECKS.map((phase) => run(phase, false)), run(MOCHA, true)]);
  for (const r of results) if (r.output) process.stdout.write(`\n── ${r.name} ──\n${r.output}`);

  console.log("\n  phase        wall    result");
  for (const r of results) {
    const tests = r.passed + r.failed + r.pending > 0 ? `${r.passed} passed, ${r.failed} failed, ${r.pending} pending` : "";
    console.log(`  ${r.name.padEnd(10)} ${r.seconds.toFixed(0).padStart(5)} s  ${r.code === 0 ? "ok" : `FAILED (exit ${r.code})`}  ${tests}`);
  }
  console.log(`  total      ${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s\n`);
  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failedTests = results.reduce((sum, r) => sum + r.failed, 0);
  const failedPhases = results.filter((r) => r.code !== 0).length;
  // A failed phase with no failing test in it (a type error, a lint finding) still fails the count line.
  console.log(`${passed} passed, ${Math.max(failedTests, failedPhases)} failed`);
  process.exitCode = failedPhases > 0 ? 1 : 0;
}

void main();
