// NTAG 424 DNA Secure Unique NFC (SUN) verification in AES mode: decrypts and authenticates the `picc_data`, `enc`
// and `cmac` parameters a tag mirrors into its URL on every tap (NXP AN12196; NT4H2421Gx datasheet §9.3).
// Pure functions over node:crypto: no database, no HTTP, no key storage (see keys.ts for where keys come from).
import { createCipheriv, createDecipheriv, timingSafeEqual } from "node:crypto";

/** The two per-tag AES-128 keys SUN needs: PICCData is encrypted with the first, the MAC keyed by the second. */
export type SunKeys = { sdmMetaRead: Buffer; sdmFileRead: Buffer };

/**
 * Why a tap was refused. `format`: the parameters are missing, of the wrong length or not hex (nothing was decrypted).
 * `tag_byte`: PICCData did not decrypt to the one layout we provision (also what a wrong meta-read key or a tampered
 * `picc_data` gives, 255 times in 256). `mac`: the MAC does not match (a forged, tampered or mis-keyed tap). `uid`:
 * the tap is authentic but from a tag other than the one the caller expected.
 */
export type SunRefusal = "format" | "tag_byte" | "mac" | "uid";

export type SunResult =
  | { ok: true; uid: string; counter: number; fileData?: Buffer }
  | { ok: false; reason: SunRefusal };

/** The parameters of one tap, decoded; only parseSunParams makes one, so every field has its exact length. */
export type SunMessage = { piccData: Buffer; cmac: Buffer; enc?: Buffer };

/**
 * PICCDataTag of the only layout we provision: UID mirrored (0x80), read counter mirrored (0x40), UID length 7.
 * Tags that mirror less (no counter) cannot be protected against replay, so they are refused rather than half-read.
 */
export const PICC_DATA_TAG = 0xc7;
/** SDMReadCtr is 24 bits; a tag at this value refuses further reads, so it is the last counter any tap can show. */
export const MAX_READ_COUNTER = 0xffffff;
/** Upper bound on SDMEncFileData, in bytes: enough for an identifier or a short claim code, small enough to bound work. */
export const MAX_ENC_FILE_BYTES = 128;

const BLOCK = 16;
const ZERO_BLOCK = Buffer.alloc(BLOCK);
/** Session vector prefixes of NT4H2421Gx §9.3.9: SV1 derives the file-data encryption key, SV2 the MAC key. */
const SV1_PREFIX = Buffer.from("c33c00010080", "hex");
const SV2_PREFIX = Buffer.from("3cc300010080", "hex");
/** The ASCII between the end of the mirrored file data and the MAC in the URL we provision (`…&enc=<hex>&cmac=<mac>`). */
const ENC_MAC_SEPARATOR = "&cmac=";

const HEX_32 = /^[0-9A-Fa-f]{32}$/;
const HEX_16 = /^[0-9A-Fa-f]{16}$/;
const HEX_BLOCKS = /^(?:[0-9A-Fa-f]{32})+$/;

/** AES-128 of one block, no chaining: the building block of CMAC's subkeys and of the file-data IV. */
function aesEncryptBlock(key: Buffer, block: Buffer): Buffer {
  const cipher = createCipheriv("aes-128-ecb", key, null);
  cipher.setAutoPadding(false);
  return cipher.update(block);
}

/** RFC 4493 subkey step: one left shift of the 128-bit value, XOR Rb (0x87) when the shifted-out bit was 1. */
function doubleBlock(block: Buffer): Buffer {
  const out = Buffer.alloc(BLOCK);
  for (let i = 0; i < BLOCK; i++) out[i] = ((block[i] << 1) | (i + 1 < BLOCK ? block[i + 1] >>> 7 : 0)) & 0xff;
  if (block[0] & 0x80) out[BLOCK - 1] ^= 0x87;
  return out;
}

/**
 * AES-128-CMAC (RFC 4493), the full 16-byte tag. The last block is XORed with K1 (complete) or padded with 10…0 and
 * XORed with K2, then all blocks go through one AES-CBC pass from a zero IV, whose last output block is the MAC.
 */
export function aesCmac(key: Buffer, message: Buffer): Buffer {
  assertAesKey(key);
  const k1 = doubleBlock(aesEncryptBlock(key, ZERO_BLOCK));
  const blocks = Math.max(1, Math.ceil(message.length / BLOCK));
  const complete = message.length > 0 && message.length % BLOCK === 0;
  const padded = Buffer.alloc(blocks * BLOCK);
  message.copy(padded);
  if (!complete) padded[message.length] = 0x80;
  const subkey = complete ? k1 : doubleBlock(k1);
  for (let i = 0; i < BLOCK; i++) padded[padded.length - BLOCK + i] ^= subkey[i];
  const cipher = createCipheriv("aes-128-cbc", key, ZERO_BLOCK);
  cipher.setAutoPadding(false);
  return cipher.update(padded).subarray(-BLOCK);
}

/** The 8 bytes a tag sends as SDMMAC: bytes 1, 3, …, 15 of the CMAC (NT4H2421Gx §9.3.9 "MACt"). */
export function truncateMac(mac: Buffer): Buffer {
  const out = Buffer.alloc(8);
  for (let i = 0; i < 8; i++) out[i] = mac[2 * i + 1];
  return out;
}

/** K_SesSDMFileReadMAC = CMAC(K_SDMFileRead, SV2), SV2 = 3C C3 00 01 00 80 ‖ UID ‖ SDMReadCtr (little-endian, as sent). */
export function sessionMacKey(sdmFileRead: Buffer, uid: Buffer, counterBytes: Buffer): Buffer {
  return aesCmac(sdmFileRead, Buffer.concat([SV2_PREFIX, uid, counterBytes]));
}

/** K_SesSDMFileReadENC = CMAC(K_SDMFileRead, SV1), SV1 = C3 3C 00 01 00 80 ‖ UID ‖ SDMReadCtr. */
export function sessionEncKey(sdmFileRead: Buffer, uid: Buffer, counterBytes: Buffer): Buffer {
  return aesCmac(sdmFileRead, Buffer.concat([SV1_PREFIX, uid, counterBytes]));
}

/** IV of SDMEncFileData: AES-ECB(K_SesSDMFileReadENC, SDMReadCtr ‖ 13 zero bytes). */
export function fileDataIv(sessionEnc: Buffer, counterBytes: Buffer): Buffer {
  return aesEncryptBlock(sessionEnc, Buffer.concat([counterBytes, Buffer.alloc(BLOCK - counterBytes.length)]));
}

/**
 * The 8-byte SDMMAC of a tap: the truncated CMAC, under the session MAC key, of the URL text between SDMMACInputOffset
 * and the MAC itself: nothing for `picc_data` + `cmac`, `"<ENC HEX>&cmac="` when encrypted file data sits in between.
 */
export function sdmMac(sdmFileRead: Buffer, uid: Buffer, counterBytes: Buffer, macInput: Buffer): Buffer {
  return truncateMac(aesCmac(sessionMacKey(sdmFileRead, uid, counterBytes), macInput));
}

/** The MAC input of a tap that carries `enc`: its hex as the tag writes it (upper case), then the separator. */
export function encMacInput(enc: Buffer): Buffer {
  return Buffer.from(enc.toString("hex").toUpperCase() + ENC_MAC_SEPARATOR, "ascii");
}

/**
 * Reads the SUN parameters of a scan URL's query. Anything but one string of the exact shape is `format`: a repeated
 * parameter (an array in Koa's query), a 24-byte PICCData (LRP mode, which we do not provision), odd or non-hex text.
 */
export function parseSunParams(query: { picc_data?: unknown; cmac?: unknown; enc?: unknown }): { ok: true; message: SunMessage } | { ok: false; reason: "format" } {
  const { picc_data: piccData, cmac, enc } = query;
  if (typeof piccData !== "string" || !HEX_32.test(piccData)) return { ok: false, reason: "format" };
  if (typeof cmac !== "string" || !HEX_16.test(cmac)) return { ok: false, reason: "format" };
  const message: SunMessage = { piccData: Buffer.from(piccData, "hex"), cmac: Buffer.from(cmac, "hex") };
  if (enc !== undefined) {
    if (typeof enc !== "string" || enc.length > 2 * MAX_ENC_FILE_BYTES || !HEX_BLOCKS.test(enc)) return { ok: false, reason: "format" };
    message.enc = Buffer.from(enc, "hex");
  }
  return { ok: true, message };
}

/** Whether a scan URL's query carries any SUN parameter: without one, a tap is a plain (unverified) one, not a bad one. */
export function hasSunParams(query: { picc_data?: unknown; cmac?: unknown; enc?: unknown }): boolean {
  return query.picc_data !== undefined || query.cmac !== undefined || query.enc !== undefined;
}

/**
 * Verifies one tap. The decrypted PICCData is only read at fixed offsets and the MAC is always computed, so the work
 * does not depend on where a forgery fails; UID, counter and file data are returned (and `enc` decrypted) only once
 * the MAC has matched. `expectedUid` (14 hex digits), when given, must be the tag the keys were derived for.
 */
export function verifySunMessage(message: SunMessage, keys: SunKeys, options: { expectedUid?: string } = {}): SunResult {
  assertAesKey(keys.sdmMetaRead);
  assertAesKey(keys.sdmFileRead);
  const decipher = createDecipheriv("aes-128-cbc", keys.sdmMetaRead, ZERO_BLOCK);
  decipher.setAutoPadding(false);
  const plain = decipher.update(message.piccData);
  const uid = plain.subarray(1, 8);
  const counterBytes = plain.subarray(8, 11);
  const macInput = message.enc ? encMacInput(message.enc) : Buffer.alloc(0);
  const macMatches = timingSafeEqual(sdmMac(keys.sdmFileRead, uid, counterBytes, macInput), message.cmac);
  if (plain[0] !== PICC_DATA_TAG) return { ok: false, reason: "tag_byte" };
  if (!macMatches) return { ok: false, reason: "mac" };

  const uidHex = uid.toString("hex").toUpperCase();
  if (options.expectedUid !== undefined && options.expectedUid.toUpperCase() !== uidHex) return { ok: false, reason: "uid" };
  const counter = counterBytes.readUIntLE(0, 3);
  if (!message.enc) return { ok: true, uid: uidHex, counter };
  const sessionEnc = sessionEncKey(keys.sdmFileRead, uid, counterBytes);
  const fileDecipher = createDecipheriv("aes-128-cbc", sessionEnc, fileDataIv(sessionEnc, counterBytes));
  fileDecipher.setAutoPadding(false);
  return { ok: true, uid: uidHex, counter, fileData: fileDecipher.update(message.enc) };
}

/** A key of the wrong size is a programming error (keys come from a TagKeyProvider), never a tap's fault. */
function assertAesKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== BLOCK) throw new TypeError("SUN keys are AES-128 keys of 16 bytes");
}
