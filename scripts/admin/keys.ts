// Operator commands on brand API keys: issue, rotate (with an optional grace period), revoke, list (prefixes only).
import { issueKey, listKeys, MAX_GRACE_SECONDS, revokeKey, rotateKey, type ApiKeyRecord } from "../../api/src/brands/service";
import { brandOption, integerOption, requiredOption, stringOption, table, type AdminCommand } from "./command";

const keyOption = { key: { type: "string" as const, required: true, description: "key id, or its prefix as list-keys shows it" } };

function keyState(key: ApiKeyRecord, now = Date.now()): string {
  if (!key.revokedAt) return "active";
  return key.revokedAt.getTime() > now ? `valid until ${key.revokedAt.toISOString()}` : "revoked";
}

function keyJson(key: ApiKeyRecord) {
  return {
    id: key.id,
    prefix: key.prefix,
    label: key.label,
    state: keyState(key).startsWith("valid") ? "grace" : keyState(key),
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  };
}

const issueKeyCommand: AdminCommand = {
  name: "issue-key",
  summary: "issue another API key for a brand (shown once)",
  options: { ...brandOption, label: { type: "string", description: "what the key is for, e.g. 'shop backend'" } },
  async run(context) {
    const key = await issueKey(context.db, requiredOption(context, "brand"), stringOption(context, "label"));
    return {
      text: `API key (shown once; store it now): ${key.key}\nKey id ${key.id}, prefix ${key.prefix}`,
      json: { api_key: key.key, key_id: key.id, key_prefix: key.prefix, label: key.label },
    };
  },
};

const rotateKeyCommand: AdminCommand = {
  name: "rotate-key",
  summary: "issue a new key and revoke the old one, at once or after --grace seconds",
  options: {
    ...brandOption,
    ...keyOption,
    grace: { type: "string", description: `seconds the old key stays valid (0 to ${MAX_GRACE_SECONDS}; default 0)` },
    label: { type: "string", description: "label of the new key (default: the old key's)" },
  },
  async run(context) {
    const graceSeconds = integerOption(context, "grace", 0, MAX_GRACE_SECONDS) ?? 0;
    const { key, revoked } = await rotateKey(context.db, requiredOption(context, "brand"), requiredOption(context, "key"), {
      graceSeconds,
      label: stringOption(context, "label"),
    });
    const old = graceSeconds > 0 ? `Old key ${revoked.prefix}… (id ${revoked.id}) stays valid until ${revoked.revokedAt!.toISOString()}.` : `Old key ${revoked.prefix}… (id ${revoked.id}) is revoked.`;
    return {
      text: `New API key (shown once; store it now): ${key.key}\nKey id ${key.id}, prefix ${key.prefix}\n${old}`,
      json: { api_key: key.key, key_id: key.id, key_prefix: key.prefix, revoked: keyJson(revoked) },
    };
  },
};

const revokeKeyCommand: AdminCommand = {
  name: "revoke-key",
  summary: "revoke a key now (answers 401 INVALID_KEY from then on)",
  options: { ...brandOption, ...keyOption },
  async run(context) {
    const key = await revokeKey(context.db, requiredOption(context, "brand"), requiredOption(context, "key"));
    return { text: `Key ${key.prefix}… (id ${key.id}) is revoked.`, json: keyJson(key) };
  },
};

const listKeysCommand: AdminCommand = {
  name: "list-keys",
  summary: "list a brand's keys by prefix (the keys themselves are never stored)",
  options: brandOption,
  async run(context) {
    const keys = await listKeys(context.db, requiredOption(context, "brand"));
    const rows = keys.map((k) => [String(k.id), `${k.prefix}…`, k.label ?? "", keyState(k), k.createdAt.toISOString(), k.lastUsedAt?.toISOString() ?? "never"]);
    return {
      text: keys.length === 0 ? "No keys." : table(["ID", "PREFIX", "LABEL", "STATE", "CREATED", "LAST USED"], rows),
      json: keys.map(keyJson),
    };
  },
};

export const commands: AdminCommand[] = [issueKeyCommand, rotateKeyCommand, revokeKeyCommand, listKeysCommand];
