// Lint configuration: ESLint's and typescript-eslint's recommended rules over our TypeScript.
import js from "@eslint/js";
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
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
);
