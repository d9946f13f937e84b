// Webhook signing secrets: generation, AES-256-GCM encryption at rest, and the two signatures every delivery carries.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";
const CIPHER_VERSION = "v1";
// Binds ciphertexts to their purpose: a blob taken from another encrypted column will not decrypt here.
const AAD = Buffer.from("passport-registry:webhook-signing-secret");

/** "whsec_" + base64 of 32 random bytes: the Standard Webhooks secret format. */
export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/**
 * AES-256-GCM with a random IV, as "v1.<base64 of iv, tag, ciphertext>". `aad` binds the ciphertext to its purpose
 * (webhook signing secrets by default; other stores pass their own, e.g. orders/gateway-keys.ts).
 */
export function encryptSecret(key: Buffer, secret: string, aad: Buffer = AAD): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `${CIPHER_VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
}

/** The plaintext of encryptSecret's output; throws when the key or `aad` is not the one it was made with. */
export function decryptSecret(key: Buffer, stored: string, aad: Buffer = AAD): string {
  const [version, blob] = stored.split(".", 2);
  if (version !== CIPHER_VERSION || !blob) throw new Error("unknown secret ciphertext format");
  const raw = Buffer.from(blob, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAAD(aad);
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

/** Hex HMAC-SHA256 keyed with the whole secret string (UTF-8) over "<t>.<body>": the X-Service-Signature v1 value. */
export function serviceSignature(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(`${timestamp}.${body}`).digest("hex");
}

/** Base64 HMAC-SHA256 keyed with the decoded part after "whsec_", over "<id>.<t>.<body>" (Standard Webhooks). */
export function standardSignature(secret: string, webhookId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
  return createHmac("sha256", key).update(`${webhookId}.${timestamp}.${body}`).digest("base64");
}

/**
 * The signature headers of one attempt. `secrets` lists the current secret first, then, during a rotation's
 * overlap, the previous one: each header then carries both signatures and a receiver holding either secret accepts.
 */
export function signatureHeaders(
  secrets: string[],
  webhookId: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((s) => `v1,${standardSignature(s, webhookId, timestamp, body)}`).join(" "),
    "x-service-signature": [`t=${timestamp}`, ...secrets.map((s) => `v1=${serviceSignature(s, timestamp, body)}`)].join(","),
  };
}
