// The service's credential signing key and its did:web identity: the private JWK from the configuration (or its file,
// made once in local mode), and the DID document that publishes the public half at /.well-known/did.json.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { calculateJwkThumbprint, importJWK, type CryptoKey, type JWK } from "jose";
import type { Config } from "../config";

export type SigningKey = {
  /** The service's DID (did:web of the public base URL). */
  did: string;
  /** `<did>#<RFC 7638 thumbprint>`: the JWS `kid` and the verification method's id. */
  keyId: string;
  alg: "EdDSA" | "ES256";
  privateKey: CryptoKey | Uint8Array;
  /** The public JWK only (no `d`). */
  publicJwk: JWK;
};

type KeyConfig = Pick<Config, "publicBaseUrl" | "credentials">;

/**
 * did:web of the public base URL: the host, its port percent-encoded (`did:web:127.0.0.1%3A3000`), then any path
 * segments separated by colons (a DID with a path resolves to <path>/did.json instead of /.well-known/did.json).
 */
export function didWebOf(publicBaseUrl: string): string {
  const url = new URL(publicBaseUrl);
  const segments = url.pathname.split("/").filter((segment) => segment !== "").map(encodeURIComponent);
  return ["did:web", encodeURIComponent(url.host), ...segments].join(":");
}

const keys = new WeakMap<KeyConfig, Promise<SigningKey>>();

/** The signing key of this configuration, loaded (or in local mode made) once per process. */
export function credentialSigningKey(config: KeyConfig): Promise<SigningKey> {
  let key = keys.get(config);
  if (!key) {
    key = loadSigningKey(config);
    // A failure is not cached: a key file fixed by the operator is picked up by the next request.
    key.catch(() => keys.delete(config));
    keys.set(config, key);
  }
  return key;
}

async function loadSigningKey(config: KeyConfig): Promise<SigningKey> {
  const jwk = (config.credentials.signingJwk ?? readKeyFile(config)) as JWK;
  const alg = jwk.kty === "OKP" && jwk.crv === "Ed25519" ? "EdDSA" : jwk.kty === "EC" && jwk.crv === "P-256" ? "ES256" : undefined;
  if (!alg || typeof jwk.d !== "string") throw new Error("the credential signing key must be a private Ed25519 or P-256 JWK");
  const publicJwk: JWK = alg === "EdDSA" ? { kty: "OKP", crv: "Ed25519", x: jwk.x } : { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y };
  const did = didWebOf(config.publicBaseUrl);
  const keyId = `${did}#${await calculateJwkThumbprint(publicJwk)}`;
  return { did, keyId, alg, privateKey: await importJWK(jwk, alg), publicJwk };
}

/** The key file's JWK; in local mode a missing file is made with a new Ed25519 key (readable by its owner only). */
function readKeyFile(config: KeyConfig): unknown {
  const file = config.credentials.signingKeyFile;
  if (!file) throw new Error("no credential signing key: set CREDENTIAL_SIGNING_KEY or CREDENTIAL_SIGNING_KEY_FILE");
  try {
    return JSON.parse(readFileSync(file, "utf8")) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || !config.credentials.generateKeyFile) {
      throw new Error(`cannot read the credential signing key from ${file}: ${(error as Error).message}`);
    }
  }
  const jwk = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
  mkdirSync(path.dirname(file), { recursive: true });
  // Written aside, then linked into place: two processes starting together keep the first key, and neither ever
  // reads a half-written file.
  const aside = `${file}.${process.pid}.${randomUUID()}`;
  writeFileSync(aside, `${JSON.stringify(jwk)}\n`, { mode: 0o600 });
  try {
    linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(aside);
  }
  return JSON.parse(readFileSync(file, "utf8")) as unknown;
}

/** The DID document of the service: its one verification method, the credential signing key, for assertions. */
export async function serviceDidDocument(config: KeyConfig): Promise<Record<string, unknown>> {
  const key = await credentialSigningKey(config);
  return {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"],
    id: key.did,
    verificationMethod: [{ id: key.keyId, type: "JsonWebKey2020", controller: key.did, publicKeyJwk: key.publicJwk }],
    assertionMethod: [key.keyId],
  };
}
