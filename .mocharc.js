// Mocha for the API, end-to-end and browser tests (`npm run test:api`; `npm test` runs it after the static checks and
// the contract tests). Files run in parallel worker processes: most of a file's time is spent waiting on a chain, an
// indexer, a browser or a timer, so three workers keep two cores busy. The slowest files are handed out first, so
// none of them starts last and runs on alone (longest first is the usual rule for packing jobs onto workers).
// MOCHA_JOBS sets the number of workers; MOCHA_JOBS=1 runs the files one after another in one process.
// `npx mocha test/api/<file>.test.ts` runs just the files named: mocha would add them to `spec`, not replace it.
const { readdirSync } = require("node:fs");
const path = require("node:path");

const DIRECTORIES = ["test/api", "test/e2e", "test/browser"];

/** Slowest first, from the timings `npm test` prints at the end; every other file follows in name order. */
const SLOW_FIRST = [
  "test/e2e/chain-reorg.test.ts",
  "test/browser/dashboard.test.ts",
  "test/e2e/chain-crash.test.ts",
  "test/api/fuzz.test.ts",
  "test/api/dashboard-products.test.ts",
  "test/browser/payments.test.ts",
  "test/api/registry.test.ts",
  "test/e2e/bulk-crash.test.ts",
  "test/api/dashboard-session.test.ts",
  "test/browser/bengali-checkout.test.ts",
  "test/e2e/local-stack.test.ts",
  "test/api/webhooks-dispatcher.test.ts",
];

function testFiles(directory) {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.join(directory, entry.name);
      if (entry.isDirectory()) return testFiles(file);
      return entry.name.endsWith(".test.ts") ? [file] : [];
    })
    .sort();
}

const named = process.argv.slice(2).some((arg) => arg.endsWith(".test.ts"));
const all = named ? [] : DIRECTORIES.flatMap(testFiles);
const ordered = [...SLOW_FIRST.filter((file) => all.includes(file)), ...all.filter((file) => !SLOW_FIRST.includes(file))];

module.exports = {
  extension: ["ts"],
  "node-option": ["import=tsx"],
  ...(named ? {} : { spec: ordered }),
  require: ["test/support/hooks.ts"],
  timeout: 180000,
  exit: true,
  parallel: process.env.MOCHA_JOBS !== "1",
  jobs: Number(process.env.MOCHA_JOBS ?? 3),
};
