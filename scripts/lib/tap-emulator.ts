// Emulates an NTAG 424 DNA tap in AES mode: the `picc_data`, `enc` and `cmac` a real tag would mirror into its URL for
// a given UID, read counter and keys, so tests, the demo and benchmarks can make authentic taps without hardware.
import { createCipheriv, randomBytes } from "node:crypto";
import {
  encMacInput,
  fileDataIv,
  MAX_ENC_FILE_BYTES,
  MAX_READ_COUNTER,
  PICC_DATA_TAG,
  sdmMac,
  sessionEncKey,
  type SunKeys,
} from "../../api/src/tags/sun";

export type EmulatedTap = { picc_data: string; cmac: string; enc?: string };

export type TapInput = {
  /** The tag's 7-byte UID, 14 hex digits. */
  uid: string;
  /** SDMReadCtr after this read, 0 to 0xFFFFFF: a tag increments it before it mirrors it. */
  counter: number;
  keys: SunKeys;
  /** Plain file data to mirror encrypted as `enc`: a whole number of 16-byte blocks, as SDMEncLength requires. */
  fileData?: Buffer;
  /** The 5 bytes after UID and counter in the PICCData block; a tag writes random ones (AN12196 §3.4.2.1). */
  padding?: Buffer;
};

/** The SUN parameters of one tap, as the tag writes them: upper-case hex. */
export function emulateTap(input: TapInput): EmulatedTap {
  if (!/^[0-9A-Fa-f]{14}$/.test(input.uid)) throw new RangeError("uid must be 14 hex digits");
  const uid = Buffer.from(input.uid, "hex");
  if (!Number.isInteger(input.counter) || input.counter < 0 || input.counter > MAX_READ_COUNTER) throw new RangeError("counter must be 0 to 0xFFFFFF");
  const padding = input.padding ?? randomBytes(5);
  if (padding.length !== 5) throw new RangeError("padding must be 5 bytes");
  const counterBytes = Buffer.alloc(3);
  counterBytes.writeUIntLE(input.counter, 0, 3);

  const piccCipher = createCipheriv("aes-128-cbc", input.keys.sdmMetaRead, Buffer.alloc(16));
  piccCipher.setAutoPadding(false);
  const piccData = piccCipher.update(Buffer.concat([Buffer.from([PICC_DATA_TAG]), uid, counterBytes, padding]));

  let enc: Buffer | undefined;
  if (input.fileData !== undefined) {
    const { fileData } = input;
    if (fileData.length === 0 || fileData.length % 16 !== 0 || fileData.length > MAX_ENC_FILE_BYTES) {
      throw new RangeError(`fileData must be 16 to ${MAX_ENC_FILE_BYTES} bytes, in whole 16-byte blocks`);
    }
    const sessionEnc = sessionEncKey(input.keys.sdmFileRead, uid, counterBytes);
    const fileCipher = createCipheriv("aes-128-cbc", sessionEnc, fileDataIv(sessionEnc, counterBytes));
    fileCipher.setAutoPadding(false);
    enc = fileCipher.update(fileData);
  }

  const mac = sdmMac(input.keys.sdmFileRead, uid, counterBytes, enc ? encMacInput(enc) : Buffer.alloc(0));
  const hex = (bytes: Buffer) => bytes.toString("hex").toUpperCase();
  return enc ? { picc_data: hex(piccData), enc: hex(enc), cmac: hex(mac) } : { picc_data: hex(piccData), cmac: hex(mac) };
}

/** The URL a tap opens: the product's scan page with the tag's mirror parameters, `enc` before `cmac` as on the tag. */
export function scanUrlOf(baseUrl: string, productUid: string, tap: EmulatedTap): string {
  const query = `picc_data=${tap.picc_data}${tap.enc ? `&enc=${tap.enc}` : ""}&cmac=${tap.cmac}`;
  let end = baseUrl.length;
  while (end > 0 && baseUrl[end - 1] === "/") end -= 1;
  return `${baseUrl.slice(0, end)}/scan/${encodeURIComponent(productUid)}?${query}`;
}
