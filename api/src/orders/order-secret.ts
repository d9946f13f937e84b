// Identifiers and secrets of orders: the public order id, the merchant reference gateways see, the order secret that
// lets a shopper read their order (never stored: recomputed from the service's secrets key), and the Cash QR token.
import { createHash, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { Config } from "../config";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ORDER_SECRET_INFO = "passport-registry/order-secret/v1";

export const ORDER_ID_PATTERN = "^ord_[0-9A-Za-z]{22}$";

function randomString(alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** "ord_" + 22 base62 characters (131 bits): unguessable, so an order id alone reveals nothing. */
export function newOrderId(): string {
  return `ord_${randomString(BASE62, 22)}`;
}

/** The merchant reference: "PR" + 14 upper-case letters and digits, what every gateway's reference field takes. */
export function newReference(): string {
  return `PR${randomString(BASE62.slice(0, 36), 14)}`;
}

const keys = new WeakMap<Buffer, Buffer>();

/** HKDF-SHA256 of the secrets key for this one purpose, derived once per key. */
function orderSecretKey(secretsKey: Buffer): Buffer {
  let key = keys.get(secretsKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secretsKey, Buffer.alloc(0), ORDER_SECRET_INFO, 32));
    keys.set(secretsKey, key);
  }
  return key;
}

/** The order's secret: base64url HMAC-SHA256 of its id. The shopper's links carry it (`#s=` on the status page). */
export function orderSecret(config: Pick<Config, "secretsKey">, orderId: string): string {
  return createHmac("sha256", orderSecretKey(config.secretsKey)).update(orderId, "utf8").digest("base64url");
}

/** Whether `given` is the order's secret, compared in constant time. */
export function isOrderSecret(config: Pick<Config, "secretsKey">, orderId: string, given: string): boolean {
  const expected = Buffer.from(orderSecret(config, orderId), "utf8");
  const actual = Buffer.from(given, "utf8");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A Cash QR confirmation token (32 random bytes, base64url) with the SHA-256 the order keeps of it. */
export function newCashToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashCashToken(token) };
}

export function hashCashToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Whether `token` is the one whose hash the order keeps, compared in constant time. */
export function isCashToken(hash: Buffer | null, token: string): boolean {
  return hash !== null && timingSafeEqual(hash, hashCashToken(token));
}
