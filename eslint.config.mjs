// Lint configuration: ESLint's, typescript-eslint's and eslint-plugin-regexp's recommended rules over our TypeScript.
import js from "@eslint/js";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";

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
);
