// Operator commands for a brand's dashboard webhook (spec 6.1): one receiver URL per brand, set here until the
// admin panel exists.
import { getBrand } from "../../api/src/brands/service";
import { DASHBOARD_EVENTS } from "../../api/src/webhooks/events";
import {
  dashboardWebhook,
  endpointDeliveries,
  reenableEndpoint,
  removeEndpoint,
  rotateSecret,
  setDashboardWebhook,
  type EndpointRecord,
} from "../../api/src/webhooks/endpoints";
import { brandOption, requiredOption, serviceConfig, table, UsageError, type AdminCommand, type CommandContext } from "./command";

async function brandAndWebhook(context: CommandContext) {
  const brand = await getBrand(context.db, requiredOption(context, "brand"));
  const webhook = await dashboardWebhook(context.db, brand.id);
  return { brand, webhook };
}

function requireWebhook(slug: string, webhook: EndpointRecord | undefined): EndpointRecord {
  if (!webhook) throw new UsageError(`brand ${slug} has no dashboard webhook; set one with set-dashboard-webhook`);
  return webhook;
}

function webhookJson(webhook: EndpointRecord) {
  return {
    webhook_id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    status: webhook.status,
    disabled_reason: webhook.disabledReason,
    disabled_at: webhook.disabledAt?.toISOString() ?? null,
    previous_secret_valid_until: webhook.previousSecretExpiresAt?.toISOString() ?? null,
    created_at: webhook.createdAt.toISOString(),
  };
}

const setCommand: AdminCommand = {
  name: "set-dashboard-webhook",
  summary: "set a brand's dashboard webhook URL (a new webhook prints its signing secret once)",
  options: { ...brandOption, url: { type: "string", required: true, description: "receiver URL (https in production)" } },
  async run(context) {
    const brand = await getBrand(context.db, requiredOption(context, "brand"));
    const { endpoint, signingSecret } = await setDashboardWebhook({ db: context.db, config: serviceConfig(context) }, brand.id, requiredOption(context, "url"));
    const secretLine = signingSecret
      ? `Signing secret (shown once; store it now): ${signingSecret}`
      : "The URL changed; the signing secret is unchanged (rotate it with rotate-dashboard-webhook-secret).";
    return {
      text: `Dashboard webhook of ${brand.slug}: ${endpoint.url}\nEvents: ${DASHBOARD_EVENTS.join(", ")}\n${secretLine}`,
      json: { ...webhookJson(endpoint), signing_secret: signingSecret ?? null },
    };
  },
};

const showCommand: AdminCommand = {
  name: "show-dashboard-webhook",
  summary: "show a brand's dashboard webhook, why it is disabled if it is, and its recent deliveries",
  options: brandOption,
  async run(context) {
    const { brand, webhook } = await brandAndWebhook(context);
    if (!webhook) return { text: `Brand ${brand.slug} has no dashboard webhook.`, json: null };
    const { deliveries } = await endpointDeliveries(context.db, brand.id, "dashboard", webhook.id, { limit: 10 });
    const state = webhook.status === "active" ? "active" : `DISABLED ${webhook.disabledAt?.toISOString() ?? ""}: ${webhook.disabledReason ?? ""}`;
    const rows = deliveries.map((d) => [
      d.id,
      d.eventType,
      d.status,
      String(d.attempts),
      d.lastResponseCode === null ? "-" : String(d.lastResponseCode),
      d.nextAttemptAt?.toISOString() ?? "-",
      (d.lastError ?? "").slice(0, 60),
    ]);
    return {
      text: [
        `Dashboard webhook of ${brand.slug}: ${webhook.url}`,
        `Status: ${state}`,
        "",
        deliveries.length === 0 ? "No deliveries yet." : table(["DELIVERY", "EVENT", "STATUS", "ATTEMPTS", "CODE", "NEXT ATTEMPT", "LAST ERROR"], rows),
      ].join("\n"),
      json: {
        ...webhookJson(webhook),
        deliveries: deliveries.map((d) => ({
          delivery_id: d.id,
          event: d.eventType,
          status: d.status,
          attempts: d.attempts,
          last_response_code: d.lastResponseCode,
          last_error: d.lastError,
          next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
        })),
      },
    };
  },
};

const rotateCommand: AdminCommand = {
  name: "rotate-dashboard-webhook-secret",
  summary: "issue a new dashboard signing secret; the old one keeps signing for 24 hours",
  options: brandOption,
  async run(context) {
    const { brand, webhook } = await brandAndWebhook(context);
    const rotated = await rotateSecret({ db: context.db, config: serviceConfig(context) }, brand.id, "dashboard", requireWebhook(brand.slug, webhook).id);
    const until = rotated.endpoint.previousSecretExpiresAt!.toISOString();
    return {
      text: `New signing secret (shown once; store it now): ${rotated.signingSecret}\nThe old secret also signs until ${until}.`,
      json: { ...webhookJson(rotated.endpoint), signing_secret: rotated.signingSecret },
    };
  },
};

const enableCommand: AdminCommand = {
  name: "enable-dashboard-webhook",
  summary: "turn a disabled dashboard webhook back on once its receiver is fixed",
  options: brandOption,
  async run(context) {
    const { brand, webhook } = await brandAndWebhook(context);
    const enabled = await reenableEndpoint({ db: context.db, config: serviceConfig(context) }, brand.id, "dashboard", requireWebhook(brand.slug, webhook).id);
    return { text: `Dashboard webhook of ${brand.slug} is active again: ${enabled.url}`, json: webhookJson(enabled) };
  },
};

const removeCommand: AdminCommand = {
  name: "remove-dashboard-webhook",
  summary: "remove a brand's dashboard webhook and its delivery log",
  options: brandOption,
  async run(context) {
    const { brand, webhook } = await brandAndWebhook(context);
    await removeEndpoint(context.db, brand.id, "dashboard", requireWebhook(brand.slug, webhook).id);
    return { text: `Dashboard webhook of ${brand.slug} removed.`, json: { removed: true } };
  },
};

export const commands: AdminCommand[] = [setCommand, showCommand, rotateCommand, enableCommand, removeCommand];
