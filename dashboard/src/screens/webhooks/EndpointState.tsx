// Whether an endpoint receives deliveries, and why not when failures disabled it.
import type { WebhookEndpoint } from "../../api/types";
import { Badge } from "../../ui/badges";

/** The API's bound on a receiver URL. */
export const RECEIVER_URL_MAX = 2048;

export function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  return endpoint.enabled ? <Badge tone="ok">Enabled</Badge> : <Badge tone="bad">{`Disabled${endpoint.disabled_reason ? `: ${endpoint.disabled_reason}` : ""}`}</Badge>;
}
