// Hardhat configuration: compiles offline with the npm `solc` build and generates ethers-v6 TypeChain types.
import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-ethers";
import "@nomicfoundation/hardhat-chai-matchers";
import "@typechain/hardhat";
import "solidity-coverage";

const SOLC_VERSION = "0.8.30";

// No compiler can be downloaded here: serve the soljson build that ships in the npm `solc` package.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args: { solcVersion: string }, _hre, runSuper) => {
  if (args.solcVersion !== SOLC_VERSION) return runSuper();
  const compilerPath = require.resolve("solc/soljson.js");
  return { compilerPath, isSolcJs: true, version: SOLC_VERSION, longVersion: require("solc/package.json").version };
});

const config: HardhatUserConfig = {
  solidity: {
    version: SOLC_VERSION,
    settings: {
      evmVersion: "cancun",
      optimizer: { enabled: true, runs: 10_000 },
      // Hardhat adds its own outputs to these; the storage layout lands in the build info, where
      // scripts/storage-layout.ts reads it instead of running solc again. Outputs do not change the bytecode.
      outputSelection: { "*": { "*": ["storageLayout"] } },
    },
  },
  paths: {
    sources: "./contracts",
    tests: "./test/contracts",
    cache: "./cache",
    artifacts: "./artifacts",
  },
  typechain: {
    outDir: "typechain-types",
    target: "ethers-v6",
  },
  networks: {
    hardhat: {
      chainId: 31337,
    },
    localhost: {
      url: process.env.RPC_URL ?? "http://127.0.0.1:8545",
      chainId: 31337,
    },
  },
  mocha: {
    // The randomized differential test takes about 10 s alone; npm test runs the contract tests beside the
    // type-check and ESLint, and on a busy 2-core machine it has taken over 120 s.
    timeout: 600_000,
  },
};

export default config;
