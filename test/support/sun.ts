// SUN checks only the tests use: the whole check of a scan URL's query in one call, and tags that mirror UID and
// counter in clear (the service provisions encrypted PICCData and checks taps with parseSunParams + verifySunMessage).
import { timingSafeEqual } from "node:crypto";
import { parseSunParams, sdmMac, verifySunMessage, type SunKeys, type SunResult } from "../../api/src/tags/sun";

/** parseSunParams then verifySunMessage: the whole check of a scan URL's query under one tag's keys. */
export function verifySun(query: { picc_data?: unknown; cmac?: unknown; enc?: unknown }, keys: SunKeys, options: { expectedUid?: string } = {}): SunResult {
  const parsed = parseSunParams(query);
  return parsed.ok ? verifySunMessage(parsed.message, keys, options) : parsed;
}

/**
 * Verifies a tap of a tag that mirrors UID and counter in clear (`uid=<14 hex>&ctr=<6 hex>&cmac=<16 hex>`, the counter
 * big-endian as NXP prints it): the same MAC, no encryption.
 */
export function verifyPlainSun(query: { uid?: unknown; ctr?: unknown; cmac?: unknown }, sdmFileRead: Buffer): SunResult {
  if (!Buffer.isBuffer(sdmFileRead) || sdmFileRead.length !== 16) throw new TypeError("SUN keys are AES-128 keys of 16 bytes");
  const { uid, ctr, cmac } = query;
  if (typeof uid !== "string" || !/^[0-9A-Fa-f]{14}$/.test(uid)) return { ok: false, reason: "format" };
  if (typeof ctr !== "string" || !/^[0-9A-Fa-f]{6}$/.test(ctr)) return { ok: false, reason: "format" };
  if (typeof cmac !== "string" || !/^[0-9A-Fa-f]{16}$/.test(cmac)) return { ok: false, reason: "format" };
  const counterBytes = Buffer.from(ctr, "hex").reverse();
  const expected = sdmMac(sdmFileRead, Buffer.from(uid, "hex"), counterBytes, Buffer.alloc(0));
  if (!timingSafeEqual(expected, Buffer.from(cmac, "hex"))) return { ok: false, reason: "mac" };
  return { ok: true, uid: uid.toUpperCase(), counter: counterBytes.readUIntLE(0, 3) };
}
