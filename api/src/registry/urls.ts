// Where a passport is read: its EN 18222 ReadDPPById URL here (the registry's live URL) and at the back-up operator
// (the back-up URL, named in the passport's header and in its registration).
import type { Config } from "../config";

export const LIFECYCLE_READ_PATH = "/api/dpp-lifecycle/v1/dpps/";

/** A passport's ReadDPPById URL at the deployment whose base URL is `baseUrl` (this one, or its back-up operator). */
export function dppReadUrl(baseUrl: string, dppId: string): string {
  return `${baseUrl}${LIFECYCLE_READ_PATH}${encodeURIComponent(dppId)}`;
}

/** The back-up URL of a passport (BACKUP_OPERATOR_URL); null when no back-up operator is configured. */
export function backupUrlOf(config: Pick<Config, "backupOperatorUrl">, dppId: string): string | null {
  return config.backupOperatorUrl ? dppReadUrl(config.backupOperatorUrl, dppId) : null;
}
