// Block-explorer links, from the configured URL template (on the local chain, the service's own explorer page).
import type { Config } from "../config";

export function explorerTxUrl(config: Config, txHash: string): string {
  return config.explorerTxUrlTemplate.replace("{txHash}", txHash);
}
