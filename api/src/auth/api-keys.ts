// Brand API keys: 256-bit random values shown once; only their SHA-256 is stored, and comparison is constant-time.
import { hash, randomBytes, timingSafeEqual } from "node:crypto";

const KEY_PREFIX = "pr_live_";

export type NewApiKey = { key: string; prefix: string; hash: Buffer };

export function generateApiKey(): NewApiKey {
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  return { key, prefix: key.slice(0, KEY_PREFIX.length + 6), hash: hashApiKey(key) };
}

/** Wraps a key chosen by the operator (DEMO_API_KEY in local mode) the same way. */
export function apiKeyFromValue(key: string): NewApiKey {
  return { key, prefix: key.slice(0, KEY_PREFIX.length + 6), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): Buffer {
  return Buffer.from(hashApiKeyHex(key), "hex");
}

/** The same hash in hex, as the key cache is keyed. */
export function hashApiKeyHex(key: string): string {
  // One-shot hash: no Hash object per request (every authenticated call hashes its key). Hex output: on Node 20
  // crypto.hash is about twice as fast to hex as to a Buffer.
  return hash("sha256", key, "hex");
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
