// Who reads a passport (docs/access.md): `Authorization: Bearer <credential>` on a read path. No credential is the
// public; a reader key the brand gave a partner, or a role credential (VC-JOSE) from an issuer on the operator's trust
// list, is a reader with a legitimate interest; an operator-issued authority key is an authority; the brand's own API
// key reads its own passports whole. A credential that is sent and fails is a 401, never read as public.
import { randomBytes } from "node:crypto";
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from "jose";
import type { Knex } from "knex";
import { hashApiKey, sameHash } from "../auth/api-keys";
import { brandForKey } from "../brands/service";
import type { AppDeps } from "../deps";
import { ReaderCredentialError, ValidationError } from "../errors";
import { didWebOf } from "../interop/signing-key";
import type { AccessClass } from "./classes";
import {
  findAuthorityKeyByHash,
  findReaderKeyByHash,
  insertAuthorityKey,
  insertReaderKey,
  insertTrustedIssuer,
  touchReaderKey,
  trustedKeysOf,
  type AuthorityKeyRow,
  type ReaderKeyRow,
  type TrustedIssuerRow,
} from "./access.repo";

export const READER_KEY_PREFIX = "pr_reader_";
export const AUTHORITY_KEY_PREFIX = "pr_authority_";
const API_KEY_PREFIX = "pr_live_";
const SESSION_TOKEN_PREFIX = "prs_";

/** The kinds of reader with a legitimate interest a reader key or a role credential may name. */
export const READER_TYPES = ["repairer", "recycler", "remanufacturer", "market-actor", "researcher", "other"] as const;
export type ReaderType = (typeof READER_TYPES)[number];

/** A reader as established by its credential. `brandId`: a reader key's or API key's brand (they read only its passports above public). */
export type Reader =
  | { class: "public" }
  | { class: "brand"; brandId: number }
  | { class: "legitimate-interest"; kind: "reader_key"; id: string; label: string; readerType: string; brandId: number }
  | { class: "legitimate-interest"; kind: "credential"; id: string; label: string | null; readerType: string }
  | { class: "authority"; kind: "authority_key"; id: string; label: string };

export const PUBLIC_READER: Reader = Object.freeze({ class: "public" });

/** The class a reader reads a passport of brand `brandId` as: a brand's key or reader key counts only for its own brand's passports. */
export function readerClassFor(reader: Reader, brandId: number | null): AccessClass {
  if (reader.class === "brand") return reader.brandId === brandId ? "authority" : "public";
  if (reader.class === "legitimate-interest" && reader.kind === "reader_key" && reader.brandId !== brandId) return "public";
  return reader.class;
}

/** An Authorization header as middleware/brand-auth.ts's parseAuthorization reads it. */
export type PresentedCredentials = { kind: "none" } | { kind: "bearer"; token: string } | { kind: "other" };

/** The reader an Authorization header names; throws ReaderCredentialError for a credential that fails. */
export async function readerOf(deps: Pick<AppDeps, "db" | "config" | "keyCache">, credentials: PresentedCredentials): Promise<Reader> {
  if (credentials.kind === "none") return PUBLIC_READER;
  if (credentials.kind === "other") throw new ReaderCredentialError("CREDENTIAL_INVALID", "The Authorization header is not 'Bearer <reader key or role credential>'.");
  const token = credentials.token;
  // An operator's session token (what POST /api/login hands out) is not a reader credential: the public reads of
  // the spec stay public for a factory operator who sends it along.
  if (token.startsWith(SESSION_TOKEN_PREFIX)) return PUBLIC_READER;
  if (token.startsWith(READER_KEY_PREFIX)) return readerKeyReader(deps.db, token);
  if (token.startsWith(AUTHORITY_KEY_PREFIX)) return authorityReader(deps.db, token);
  if (token.startsWith(API_KEY_PREFIX)) {
    const brand = await brandForKey(deps.db, token, deps.keyCache);
    if (!brand) throw new ReaderCredentialError("READER_KEY_INVALID", "The key is unknown or revoked.");
    return { class: "brand", brandId: brand.id };
  }
  if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) return credentialReader(deps, token);
  throw new ReaderCredentialError("CREDENTIAL_INVALID", "The bearer token is neither a reader key, an authority key nor a role credential (a VC-JOSE compact JWS).");
}

async function readerKeyReader(db: Knex, token: string): Promise<Reader> {
  const hash = hashApiKey(token);
  const row = await findReaderKeyByHash(db, hash);
  // Found by its hash; the constant-time comparison keeps the decision free of timing signals, as for API keys.
  if (!row || !sameHash(row.key_hash, hash) || row.revoked_at) throw new ReaderCredentialError("READER_KEY_INVALID", "The reader key is unknown or revoked.");
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) await touchReaderKey(db, row.id);
  return { class: "legitimate-interest", kind: "reader_key", id: String(row.id), label: row.label, readerType: row.reader_type, brandId: row.brand_id };
}

async function authorityReader(db: Knex, token: string): Promise<Reader> {
  const hash = hashApiKey(token);
  const row = await findAuthorityKeyByHash(db, hash);
  if (!row || !sameHash(row.key_hash, hash) || row.revoked_at) throw new ReaderCredentialError("READER_KEY_INVALID", "The authority key is unknown or revoked.");
  return { class: "authority", kind: "authority_key", id: String(row.id), label: row.label };
}

const SIGNING_ALGS = new Set(["EdDSA", "ES256", "ES384", "RS256", "PS256"]);

/**
 * A role credential: a VC-JOSE compact JWS whose payload is the credential (W3C VC 2.0), signed by an issuer on the
 * trust list, stating `credentialSubject.role: "legitimate-interest"` and a reader type, within its validity
 * (`validUntil` or `exp` required), and, when it names an audience (`aud`), made out to this service.
 */
async function credentialReader(deps: Pick<AppDeps, "db" | "config">, jws: string): Promise<Reader> {
  const invalid = (why: string) => new ReaderCredentialError("CREDENTIAL_INVALID", `The role credential ${why}.`);
  let alg: string | undefined;
  let claims: Record<string, unknown>;
  try {
    alg = decodeProtectedHeader(jws).alg;
    claims = JSON.parse(Buffer.from(jws.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    throw invalid("is not a JWS with a JSON payload");
  }
  if (!alg || !SIGNING_ALGS.has(alg)) throw invalid(`is signed with ${alg ?? "no algorithm"}; EdDSA, ES256, ES384, RS256 or PS256 expected`);
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) throw invalid("payload is not a JSON object");
  const issuerClaim = claims.issuer ?? claims.iss;
  const issuer = typeof issuerClaim === "string" ? issuerClaim : typeof issuerClaim === "object" && issuerClaim !== null ? (issuerClaim as { id?: unknown }).id : undefined;
  if (typeof issuer !== "string" || issuer === "") throw invalid("names no issuer");

  const trusted = await trustedKeysOf(deps.db, issuer);
  if (trusted.length === 0) throw new ReaderCredentialError("CREDENTIAL_UNTRUSTED_ISSUER", `The issuer ${issuer.slice(0, 200)} is not on this service's trust list.`);
  if (!(await signedByOneOf(jws, alg, trusted))) throw invalid("signature does not verify with its issuer's trusted keys (forged or altered)");

  const types = Array.isArray(claims.type) ? claims.type : [claims.type];
  if (!types.includes("VerifiableCredential")) throw invalid('is not a VerifiableCredential (its "type" must include it)');
  const now = Date.now();
  // Both forms count where both are given (VC 2.0's validFrom/validUntil, JWT's nbf/exp): the narrower window wins.
  const until = earliest(isoTime(claims.validUntil), numericTime(claims.exp));
  const from = latest(isoTime(claims.validFrom), numericTime(claims.nbf));
  if (Number.isNaN(until) || Number.isNaN(from)) throw invalid("states a validity (validFrom, validUntil, nbf or exp) that is not a time");
  if (until === undefined) throw invalid("has no end of validity (validUntil or exp)");
  if (until <= now) throw new ReaderCredentialError("CREDENTIAL_EXPIRED", `The role credential expired at ${new Date(until).toISOString()}.`);
  if (from !== undefined && from > now) throw invalid(`is not valid before ${new Date(from).toISOString()}`);
  if (claims.aud !== undefined) {
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const ours = [deps.config.publicBaseUrl, didWebOf(deps.config.publicBaseUrl)];
    if (!audiences.some((aud) => typeof aud === "string" && ours.includes(aud.replace(/\/$/, "")))) {
      throw new ReaderCredentialError("CREDENTIAL_AUDIENCE", `The role credential is made out to another service (aud), not to ${ours.join(" or ")}.`);
    }
  }
  const subject = Array.isArray(claims.credentialSubject) ? claims.credentialSubject[0] : claims.credentialSubject;
  const role = typeof subject === "object" && subject !== null ? (subject as Record<string, unknown>) : {};
  if (role.role !== "legitimate-interest") {
    throw invalid('states no role this service grants (credentialSubject.role must be "legitimate-interest"; authorities read with an operator-issued key)');
  }
  const readerType = role.readerType;
  if (typeof readerType !== "string" || !(READER_TYPES as readonly string[]).includes(readerType)) throw invalid(`states no reader type (credentialSubject.readerType: ${READER_TYPES.join(", ")})`);
  const label = typeof role.id === "string" ? role.id.slice(0, 200) : typeof role.name === "string" ? role.name.slice(0, 200) : null;
  return { class: "legitimate-interest", kind: "credential", id: issuer.slice(0, 500), label, readerType };
}

async function signedByOneOf(jws: string, alg: string, keys: TrustedIssuerRow[]): Promise<boolean> {
  for (const key of keys) {
    try {
      await compactVerify(jws, await importJWK(key.public_jwk, alg));
      return true;
    } catch {
      // Another key of the issuer may have signed it (rotation): try the next.
    }
  }
  return false;
}

/** Milliseconds a Date can hold (±8.64e15), else NaN: a claim such as `nbf: 1e13` is refused, never a 500. */
const inCalendar = (ms: number) => (Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : NaN);
/** An ISO 8601 claim (validFrom, validUntil) in ms; undefined when absent, NaN when it is there but no time. */
const isoTime = (value: unknown) => (value === undefined ? undefined : typeof value === "string" ? inCalendar(Date.parse(value)) : NaN);
/** A NumericDate claim (nbf, exp: seconds) in ms; undefined when absent, NaN when it is there but no time. */
const numericTime = (value: unknown) => (value === undefined ? undefined : typeof value === "number" ? inCalendar(value * 1000) : NaN);
const given = (times: Array<number | undefined>) => times.filter((t): t is number => t !== undefined);
const earliest = (...times: Array<number | undefined>) => (given(times).length === 0 ? undefined : Math.min(...given(times)));
const latest = (...times: Array<number | undefined>) => (given(times).length === 0 ? undefined : Math.max(...given(times)));

// ---- issuing -----------------------------------------------------------------------------------------------------

const newKey = (prefix: string) => {
  const key = prefix + randomBytes(32).toString("base64url");
  return { key, prefix: key.slice(0, prefix.length + 6), hash: hashApiKey(key) };
};

/** A reader key for a brand's partner, shown once; only its hash is kept. */
export async function issueReaderKey(db: Knex, brandId: number, label: string, readerType: ReaderType): Promise<{ key: string; row: ReaderKeyRow }> {
  const made = newKey(READER_KEY_PREFIX);
  const row = await insertReaderKey(db, { brand_id: brandId, key_hash: made.hash, prefix: made.prefix, label, reader_type: readerType });
  return { key: made.key, row };
}

/** An authority's key, issued by the operator (npm run admin -- issue-authority-key), shown once. */
export async function issueAuthorityKey(db: Knex, label: string): Promise<{ key: string; row: AuthorityKeyRow }> {
  const made = newKey(AUTHORITY_KEY_PREFIX);
  return { key: made.key, row: await insertAuthorityKey(db, { key_hash: made.hash, prefix: made.prefix, label }) };
}

/** Puts an issuer's public key on the trust list (npm run admin -- trust-issuer); refuses a private or unusable key. */
export async function trustIssuer(db: Knex, issuer: string, jwk: JWK, label: string): Promise<TrustedIssuerRow> {
  if (typeof issuer !== "string" || issuer.trim() === "" || issuer.length > 500) throw new ValidationError([{ field: "issuer", problem: "must be the issuer's DID or URL (at most 500 characters)" }]);
  if (typeof jwk !== "object" || jwk === null || !jwk.kty) throw new ValidationError([{ field: "jwk", problem: "must be a public JWK" }]);
  if ("d" in jwk || "p" in jwk || "k" in jwk) throw new ValidationError([{ field: "jwk", problem: "is a private or symmetric key: give the issuer's public key only" }]);
  const alg = jwk.kty === "OKP" ? "EdDSA" : jwk.kty === "EC" ? (jwk.crv === "P-384" ? "ES384" : "ES256") : "RS256";
  try {
    await importJWK(jwk, alg);
  } catch (error) {
    throw new ValidationError([{ field: "jwk", problem: `is not a usable public key (${(error as Error).message})` }]);
  }
  const { kty, crv, x, y, n, e } = jwk;
  const publicJwk = Object.fromEntries(Object.entries({ kty, crv, x, y, n, e }).filter(([, v]) => v !== undefined)) as JWK;
  return insertTrustedIssuer(db, { issuer: issuer.trim(), public_jwk: publicJwk, label });
}
