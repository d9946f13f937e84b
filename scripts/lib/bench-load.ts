// What the load benchmarks share: their knobs from the environment, the load generator's timed loop in a worker thread
// (so it does not share an event loop with the API it measures), the figures of its latencies, and the table they print.
import { Worker } from "node:worker_threads";

/** What a load run measured: requests over seconds, their rate, and the 50th and 99th percentile latencies. */
export type LoadFigures = { requests: number; seconds: number; perSecond: number; p50Ms: number; p99Ms: number };

/** A benchmark's knob (BENCH_DURATION and the like): a whole number of at least 1, or `fallback` when unset. */
export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer (got "${raw}")`);
  return value;
}

/**
 * What every load generator's worker starts with. `timedLoop(durationMs, next, after)` is one connection: it takes
 * the next call from `next()` (undefined: nothing is left to send) and times it, again and again until `durationMs`
 * has passed, handing what each call returned to `after`; it resolves with the number of calls made.
 * `measure(connections, counts)` runs the connections at once and posts the latencies, the seconds they took and
 * what `counts(their results)` adds.
 */
const WORKER_PRELUDE = `
const { parentPort, workerData } = require("node:worker_threads");
const latencies = [];
async function timedLoop(durationMs, next, after) {
  const until = performance.now() + durationMs;
  let calls = 0;
  while (performance.now() < until) {
    const call = next();
    if (call === undefined) break;
    const started = performance.now();
    const result = await call();
    latencies.push(performance.now() - started);
    calls += 1;
    after(result);
  }
  return calls;
}
function measure(connections, counts) {
  const began = performance.now();
  Promise.all(connections.map((connection) => connection())).then((results) => {
    parentPort.postMessage({ ...counts(results), latencies, seconds: (performance.now() - began) / 1000 });
  });
}
`;

/**
 * Runs a load generator in a worker thread: `source` is its JavaScript, which follows the prelude above and ends by
 * calling `measure`. Resolves with the generator's own counts and the figures of its latencies.
 */
export function runLoad<Counts extends object>(source: string, workerData: Record<string, unknown>): Promise<Counts & LoadFigures> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_PRELUDE + source, { eval: true, workerData });
    worker.once("error", reject);
    worker.once("message", ({ latencies, seconds, ...counts }: { latencies: number[]; seconds: number }) => {
      void worker.terminate();
      const sorted = Float64Array.from(latencies).sort();
      const at = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
      resolve({ ...(counts as Counts), requests: sorted.length, seconds, perSecond: sorted.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99) });
    });
  });
}

/**
 * The figures as an aligned table: `header` names the target, rate, p50 and p99 columns and then the benchmark's own,
 * whose cells each row gives in `more`; the numbers are right-aligned, the first and last columns left-aligned.
 */
export function figuresTable(header: string[], rows: Array<{ name: string; figures: LoadFigures; more: string[] }>): string[] {
  const cells = rows.map(({ name, figures: f, more }) => [name, f.perSecond.toFixed(0), f.p50Ms.toFixed(1), f.p99Ms.toFixed(1), ...more]);
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c]!.length)));
  const line = (row: string[]) => row.map((cell, c) => (c === 0 || c === row.length - 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ").trimEnd();
  return [line(header), ...cells.map(line)];
}
