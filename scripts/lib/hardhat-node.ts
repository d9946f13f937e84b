// A Hardhat node on 127.0.0.1 for local mode, tests and benchmarks; it mines on each transaction and on an interval.
import path from "node:path";
import { JsonRpcProvider, Network } from "ethers";
import { LOCAL_CHAIN_ID } from "../../api/src/config";
import { spawnLogged, waitFor, type Child } from "./processes";

export type ChainNode = { rpcUrl: string; chainId: number; child: Child; stop: () => Promise<void> };

const ROOT = path.resolve(__dirname, "..", "..");

export async function startHardhatNode(options: { port: number; logFile: string; intervalMs?: number }): Promise<ChainNode> {
  // Started from its bin file so the node is one process with one PID; it logs every RPC call, hence the file.
  const child = spawnLogged(
    "hardhat node",
    process.execPath,
    [
      path.join(ROOT, "node_modules", "hardhat", "internal", "cli", "bootstrap.js"),
      "node",
      "--config",
      path.join(__dirname, "hardhat-node.config.js"),
      "--hostname",
      "127.0.0.1",
      "--port",
      String(options.port),
    ],
    { cwd: ROOT, env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" }, logFile: options.logFile },
  );
  const rpcUrl = `http://127.0.0.1:${options.port}`;
  const provider = new JsonRpcProvider(rpcUrl, Network.from(LOCAL_CHAIN_ID), { staticNetwork: true });
  try {
    await waitFor(
      "the Hardhat node",
      async () => {
        if (child.process.exitCode !== null) throw new Error(`it exited; see ${options.logFile}`);
        return (await provider.getBlockNumber()) >= 0 ? true : undefined;
      },
      90_000,
      200,
    );
    // Interval mining keeps the head moving so confirmations advance; one block at a time (ARCHITECTURE pitfalls).
    if (options.intervalMs) await provider.send("evm_setIntervalMining", [options.intervalMs]);
  } catch (error) {
    await child.stop();
    throw error;
  } finally {
    provider.destroy();
  }
  return { rpcUrl, chainId: LOCAL_CHAIN_ID, child, stop: child.stop };
}
