// Operator commands for access classes (docs/access.md): authority keys (market surveillance, customs, the
// Commission) and the trust list of issuers whose role credentials (VC-JOSE) prove a legitimate interest.
import { readFileSync } from "node:fs";
import type { JWK } from "jose";
import { deleteTrustedIssuer, listAuthorityKeys, listTrustedIssuers, revokeAuthorityKey } from "../../api/src/access/access.repo";
import { issueAuthorityKey, trustIssuer } from "../../api/src/access/readers";
import { NotFoundError } from "../../api/src/errors";
import { integerOption, requiredOption, stringOption, table, UsageError, type AdminCommand } from "./command";

const issueAuthorityKeyCommand: AdminCommand = {
  name: "issue-authority-key",
  summary: "issue a key an authority reads every passport with, at the authority class (shown once)",
  options: { label: { type: "string", required: true, description: "who holds it, e.g. 'Market surveillance, Germany'" } },
  async run(context) {
    const { key, row } = await issueAuthorityKey(context.db, requiredOption(context, "label"));
    return {
      text: `Authority key (shown once; hand it over now): ${key}\nKey id ${row.id}, prefix ${row.prefix}`,
      json: { authority_key: key, key_id: Number(row.id), key_prefix: row.prefix, label: row.label },
    };
  },
};

const revokeAuthorityKeyCommand: AdminCommand = {
  name: "revoke-authority-key",
  summary: "revoke an authority key now (answers 401 READER_KEY_INVALID from then on)",
  options: { id: { type: "string", required: true, description: "the key's id, as list-authority-keys shows it" } },
  async run(context) {
    const id = integerOption(context, "id", 1, Number.MAX_SAFE_INTEGER);
    if (id === undefined) throw new UsageError("--id is required");
    const row = await revokeAuthorityKey(context.db, id);
    if (!row) throw new NotFoundError("Authority key");
    return { text: `Authority key ${row.prefix}… (id ${row.id}) is revoked.`, json: { id: Number(row.id), revoked_at: row.revoked_at?.toISOString() ?? null } };
  },
};

const listAuthorityKeysCommand: AdminCommand = {
  name: "list-authority-keys",
  summary: "list the authority keys by prefix (the keys themselves are never stored)",
  options: {},
  async run(context) {
    const rows = await listAuthorityKeys(context.db);
    const state = (revoked: Date | null) => (revoked ? "revoked" : "active");
    return {
      text: rows.length === 0 ? "No authority keys." : table(["ID", "PREFIX", "LABEL", "STATE", "CREATED"], rows.map((r) => [String(r.id), `${r.prefix}…`, r.label, state(r.revoked_at), r.created_at.toISOString()])),
      json: rows.map((r) => ({ id: Number(r.id), prefix: r.prefix, label: r.label, state: state(r.revoked_at), created_at: r.created_at.toISOString() })),
    };
  },
};

const trustIssuerCommand: AdminCommand = {
  name: "trust-issuer",
  summary: "put an issuer of role credentials on the trust list, with one of its public keys (a JWK)",
  options: {
    issuer: { type: "string", required: true, description: "the issuer's DID or URL, as its credentials name it (issuer or iss)" },
    jwk: { type: "string", description: "the issuer's public key as a JWK (JSON)" },
    "jwk-file": { type: "string", description: "a file holding that JWK, or a JWKS ({\"keys\": [...]}: each key is trusted)" },
    label: { type: "string", description: "what the issuer is, e.g. 'Textile Recyclers Association'" },
  },
  async run(context) {
    const issuer = requiredOption(context, "issuer");
    const inline = stringOption(context, "jwk");
    const file = stringOption(context, "jwk-file");
    if ((inline === undefined) === (file === undefined)) throw new UsageError("give exactly one of --jwk or --jwk-file");
    let parsed: unknown;
    try {
      parsed = JSON.parse(inline ?? readFileSync(file!, "utf8"));
    } catch (error) {
      throw new UsageError(`the JWK is not readable JSON: ${(error as Error).message}`);
    }
    const keys = (typeof parsed === "object" && parsed !== null && Array.isArray((parsed as { keys?: unknown }).keys) ? (parsed as { keys: JWK[] }).keys : [parsed]) as JWK[];
    const label = stringOption(context, "label") ?? issuer;
    const rows = [];
    for (const key of keys) rows.push(await trustIssuer(context.db, issuer, key, label));
    return {
      text: rows.map((row) => `Trusted ${row.issuer} (entry ${row.id}, ${row.public_jwk.kty}${row.public_jwk.crv ? ` ${row.public_jwk.crv}` : ""}).`).join("\n"),
      json: rows.map((row) => ({ id: Number(row.id), issuer: row.issuer, label: row.label, public_jwk: row.public_jwk })),
    };
  },
};

const untrustIssuerCommand: AdminCommand = {
  name: "untrust-issuer",
  summary: "take a key of an issuer off the trust list (its credentials answer 401 from then on)",
  options: { id: { type: "string", required: true, description: "the entry's id, as list-trusted-issuers shows it" } },
  async run(context) {
    const id = integerOption(context, "id", 1, Number.MAX_SAFE_INTEGER);
    if (id === undefined) throw new UsageError("--id is required");
    if (!(await deleteTrustedIssuer(context.db, id))) throw new NotFoundError("Trusted issuer entry");
    return { text: `Entry ${id} is off the trust list.`, json: { id, removed: true } };
  },
};

const listTrustedIssuersCommand: AdminCommand = {
  name: "list-trusted-issuers",
  summary: "list the issuers whose role credentials this service trusts, with their keys",
  options: {},
  async run(context) {
    const rows = await listTrustedIssuers(context.db);
    return {
      text: rows.length === 0 ? "No trusted issuers." : table(["ID", "ISSUER", "KEY", "LABEL"], rows.map((r) => [String(r.id), r.issuer, `${r.public_jwk.kty}${r.public_jwk.crv ? ` ${r.public_jwk.crv}` : ""}`, r.label])),
      json: rows.map((r) => ({ id: Number(r.id), issuer: r.issuer, label: r.label, public_jwk: r.public_jwk })),
    };
  },
};

export const commands: AdminCommand[] = [
  issueAuthorityKeyCommand,
  revokeAuthorityKeyCommand,
  listAuthorityKeysCommand,
  trustIssuerCommand,
  untrustIssuerCommand,
  listTrustedIssuersCommand,
];
