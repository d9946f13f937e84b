// Where each NTAG 424 DNA tag's SUN keys come from: derived on demand from one master key, the tag UID and a key
// version, so no tag key is ever stored, and behind one interface so a KMS or an HSM can take the derivation over.
import { createHmac, hkdfSync } from "node:crypto";
import type { SunKeys } from "./sun";

/** Gives the SUN keys of one tag; `keyVersion` is the KeyVer byte the keys were written to the tag with (0–255). */
export interface TagKeyProvider {
  keysFor(uid: string, keyVersion: number): Promise<SunKeys>;
}

/** What a derived key is for: its own key per purpose, so one leaked purpose key tells nothing about another. */
export type TagKeyPurpose = "sdm-meta-read" | "sdm-file-read";

export const MASTER_KEY_BYTES = 32;
const TAG_KEY_BYTES = 16;
const UID_PATTERN = /^[0-9A-Fa-f]{14}$/;
/** HKDF-Expand's one-byte block counter: a 16-byte key is the first block, T(1). */
const EXPAND_COUNTER = Buffer.from([1]);

/**
 * One tag key, HKDF-SHA256 (RFC 5869): IKM = the 32-byte master key, no salt, L = 16,
 * info = "passport-registry/ntag424/<purpose>/v<version>/<UID in upper-case hex>".
 *
 * Why HKDF rather than NXP AN10922's CMAC diversification: AN10922 is specified for AES-128 master keys and needs
 * its own padding rules, while HKDF takes our 32-byte master key as it is, is in node:crypto and in every crypto
 * library an encoding station or a KMS runs (a single HMAC-SHA256 once the PRK is held as an HMAC key), and binds
 * purpose, version and UID in one readable, unambiguous info string (the UID is fixed-length hex, the version has
 * no separator inside it). No salt: the master key is already uniformly random, which is the case RFC 5869 §3.1
 * allows it for, and it keeps the construction reproducible from this comment alone.
 */
export function deriveTagKey(masterKey: Buffer, uid: string, keyVersion: number, purpose: TagKeyPurpose): Buffer {
  if (!Buffer.isBuffer(masterKey) || masterKey.length !== MASTER_KEY_BYTES) throw new RangeError(`The tag master key must be ${MASTER_KEY_BYTES} bytes`);
  return Buffer.from(hkdfSync("sha256", masterKey, Buffer.alloc(0), Buffer.from(infoOf(uid, keyVersion, purpose), "ascii"), TAG_KEY_BYTES));
}

/**
 * The default TagKeyProvider: derives both SUN keys of a tag from the master key given at start. It keeps only HKDF's
 * pseudorandom key (HKDF-Extract of the master key, the same for every tag), so each tag key costs one HMAC
 * (HKDF-Expand of a single block) instead of a whole HKDF: the keys are those of deriveTagKey, at a fraction of the cost.
 */
export class MasterKeyDerivation implements TagKeyProvider {
  readonly #prk: Buffer;

  constructor(masterKey: Buffer) {
    if (!Buffer.isBuffer(masterKey) || masterKey.length !== MASTER_KEY_BYTES) throw new RangeError(`The tag master key must be ${MASTER_KEY_BYTES} bytes`);
    // RFC 5869 §2.2: no salt is a salt of HashLen zero bytes.
    this.#prk = createHmac("sha256", Buffer.alloc(32)).update(masterKey).digest();
  }

  async keysFor(uid: string, keyVersion: number): Promise<SunKeys> {
    return { sdmMetaRead: this.#expand(uid, keyVersion, "sdm-meta-read"), sdmFileRead: this.#expand(uid, keyVersion, "sdm-file-read") };
  }

  /** HKDF-Expand with L = 16: the first 16 bytes of T(1) = HMAC(PRK, info ‖ 0x01). */
  #expand(uid: string, keyVersion: number, purpose: TagKeyPurpose): Buffer {
    const info = infoOf(uid, keyVersion, purpose);
    return createHmac("sha256", this.#prk).update(info, "ascii").update(EXPAND_COUNTER).digest().subarray(0, TAG_KEY_BYTES);
  }
}

/** HKDF's info for one key: everything that must give a different key, in a fixed order and unambiguous. */
function infoOf(uid: string, keyVersion: number, purpose: TagKeyPurpose): string {
  return `passport-registry/ntag424/${purpose}/v${checkedVersion(keyVersion)}/${checkedUid(uid)}`;
}

/** A tag UID as the derivation spells it: 7 bytes, upper-case hex. Callers pass UIDs from tag records, already checked. */
function checkedUid(uid: string): string {
  if (typeof uid !== "string" || !UID_PATTERN.test(uid)) throw new RangeError("A tag UID is 7 bytes, written as 14 hex digits");
  return uid.toUpperCase();
}

/** NTAG 424 DNA stores a key's version as one byte (KeyVer of ChangeKey), so that is the range of versions. */
function checkedVersion(keyVersion: number): number {
  if (!Number.isInteger(keyVersion) || keyVersion < 0 || keyVersion > 255) throw new RangeError("A tag key version is an integer from 0 to 255");
  return keyVersion;
}
