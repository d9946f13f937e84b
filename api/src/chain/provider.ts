// The read-only JSON-RPC connection to the chain.
import { JsonRpcProvider, Network } from "ethers";

export function createProvider(rpcUrl: string, chainId: number): JsonRpcProvider {
  // A static network skips ethers' chain-id probing and its retry loop when the node is down. No response cache:
  // ethers reuses identical reads for 250 ms by default, which hands out a stale nonce or head right after a mine.
  return new JsonRpcProvider(rpcUrl, Network.from(chainId), { staticNetwork: true, polling: false, cacheTimeout: -1 });
}
