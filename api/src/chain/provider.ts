// The read-only JSON-RPC connection to the chain.
import { JsonRpcProvider, Network } from "ethers";

export function createProvider(rpcUrl: string, chainId: number): JsonRpcProvider {
  // A static network skips ethers' chain-id probing and its retry loop when the node is down.
  return new JsonRpcProvider(rpcUrl, Network.from(chainId), { staticNetwork: true, polling: false });
}
