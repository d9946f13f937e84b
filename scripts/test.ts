// `npm test`: the whole suite. The static checks and the contract tests run side by side (each is mostly one core),
// then mocha runs the API, end-to-end and browser tests in parallel workers (.mocharc.js). Ends with each phase's
// wall time, the slowest test files (printed by mocha's global teardown) and one closing count line.
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

/** Runs `phase`; its output is streamed live, or held and printed whole when it ends (so side-by-side runs do not mix). */
function run(phase: Phase, live: boolean): Promise<Result> {
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
      if (!live) process.stdout.write(`\n── ${phase.name} ──\n${output}`);
      // Mocha's closing lines (hardhat test is mocha too): "852 passing (5m)", "2 failing", "3 pending".
      const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, "m").exec(output)?.[1] ?? 0);
      resolve({
        name: phase.name,
        seconds: (Date.now() - started) / 1000,
        code: code ?? (signal ? 1 : 0),
        passed: count("passing"),
        failed: count("failing"),
        pending: count("pending"),
      });
    });
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(`running ${CHECKS.map((phase) => phase.name).join(", ")} side by side …`);
  const results = await Promise.all(CHECKS.map((phase) => run(phase, false)));
  if (results.every((result) => result.code === 0)) results.push(await run(MOCHA, true));
  else console.log("\nmocha not run: fix the failures above first");

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
  process.exitCode = failedPhases > 0 || results.length <= CHECKS.length ? 1 : 0;
}

void main();
