// Lint configuration: ESLint's, typescript-eslint's and eslint-plugin-regexp's recommended rules over our TypeScript,
// and the import boundaries between api/src's layers.
import js from "@eslint/js";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";

/** What the HTTP layer and the views may not import: the database, other than through a service. */
const NO_DATABASE = {
  paths: [
    { name: "knex", message: "Only repos (*.repo.ts) talk to the database: call the area's service." },
    { name: "pg", message: "Only repos (*.repo.ts) talk to the database: call the area's service." },
  ],
  patterns: [{ regex: "(^|/)(db/knex|[^/]+\\.repo)$", message: "Routes, middleware and views call services, not repos or the pool." }],
};

/** What the domain and the views may not import: HTTP. */
const NO_HTTP = {
  paths: [
    { name: "koa", message: "Domain modules do not see HTTP: take plain values, return data, throw AppErrors." },
    { name: "@koa/router", message: "Domain modules do not see HTTP: routes live in api/src/routes/." },
  ],
  patterns: [{ regex: "(^|/)(routes|middleware)(/|$)", message: "Domain modules do not import the HTTP layer (routes/, middleware/)." }],
};

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "artifacts/",
      "cache/",
      "coverage/",
      "typechain-types/",
      ".data/",
      "indexer/.ponder/",
      "indexer/abis/",
      "indexer/ponder-env.d.ts",
      "deployments/",
      // Third-party files kept unchanged as test data (GS1's resolver test suite and its toolkit).
      "test/vendor/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  regexp.configs["flat/recommended"],
  {
    rules: {
      // A pattern that backtracks super-linearly on request data lets one request burn CPU (issue 9, finding 2).
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
      // Style only, no change in what a pattern matches: spelled-out classes ([0-9], [A-Za-z0-9_], [0-9a-fA-F]) are
      // how this code base writes them, and rewriting every test's patterns would buy nothing.
      "regexp/prefer-d": "off",
      "regexp/prefer-w": "off",
      "regexp/use-ignore-case": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  // The layers of api/src (docs/architecture.md). The HTTP layer (routes/, middleware/) parses, authorises, calls
  // the domain and presents; views (pages/) render what the domain gives them. SQL is the repos' alone, so a route
  // or a view that wants data asks a service.
  {
    files: ["api/src/routes/**", "api/src/middleware/**"],
    rules: { "no-restricted-imports": ["error", { paths: NO_DATABASE.paths, patterns: NO_DATABASE.patterns }] },
  },
  // The domain (everything else under api/src, views included) knows nothing of HTTP, so it can be called from a
  // route, the admin CLI, the seed or a test alike.
  {
    files: ["api/src/**"],
    ignores: ["api/src/routes/**", "api/src/middleware/**", "api/src/openapi/**", "api/src/pages/**", "api/src/app.ts", "api/src/server.ts"],
    rules: { "no-restricted-imports": ["error", { paths: NO_HTTP.paths, patterns: NO_HTTP.patterns }] },
  },
  {
    files: ["api/src/pages/**"],
    rules: {
      "no-restricted-imports": ["error", { paths: [...NO_DATABASE.paths, ...NO_HTTP.paths], patterns: [...NO_DATABASE.patterns, ...NO_HTTP.patterns] }],
    },
  },
  // The dashboard workspace: its TypeScript (dashboard/src) takes the rules above as it is; its build (dashboard/dist,
  // made by `npm install`) is minified generated code, not ours to lint.
  { ignores: ["dashboard/dist/"] },
  // Mocha's and the local node's Hardhat configurations are CommonJS, required by Node.
  {
    files: [".mocharc.js", "scripts/lib/hardhat-node.config.js"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable", process: "readonly" } },
  },
);
