// Provisioning a batch of NFC tags for a brand: their records (chip, key version, optionally the product each goes
// on), and for the encoding station a CSV with each tag's URL template and, for NTAG 424 DNA, its two SUN keys.
// Used by POST /api/dashboard/tags/provision, the operator CLI (provision-tags) and the demo seed.
import { stringify } from "csv-stringify/sync";
import { recordAudit, type Actor } from "../audit/service";
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { brandBaseUrl, productLinks, type BrandAddress } from "../links";
import { digitalLinkPath, type Gs1Identifiers } from "../gs1/digital-link";
import { identifiersByUid } from "../gs1/gs1.repo";
import { ConflictError, ValidationError, type ErrorDetail } from "../errors";
import type { SunKeys } from "./sun";
import { productIdsByUid, provisioningConflicts, tagUidsHeldByOthers, upsertProvisionedTags } from "./tag-records.repo";
import { tagKeyProvider } from "./verification";
import type { TagChip } from "./verdicts";

/** Tags in one batch: what one encoding run takes, and small enough for one statement and one answer. */
export const PROVISION_MAX_TAGS = 1000;

/**
 * The query a tag's NDEF URL ends with, placeholders the chip overwrites on every read (SDM mirroring): PICCData
 * (UID and counter, encrypted with the meta-read key: 16 bytes as 32 hex digits) then the MAC (8 bytes, 16 hex).
 * The encoding station sets PICCDataOffset at the first placeholder and SDMMACInputOffset = SDMMACOffset at the second.
 */
export const SDM_MIRROR_QUERY = `picc_data=${"0".repeat(32)}&cmac=${"0".repeat(16)}`;
/** Stands for the product's UID in a URL template of a tag provisioned without a product. */
export const PRODUCT_UID_PLACEHOLDER = "{product_uid}";

export const PROVISIONING_CSV_COLUMNS = ["tag_uid", "chip", "key_version", "product_uid", "url_template", "sdm_meta_read_key", "sdm_file_read_key"] as const;

export type ProvisionInput = { chip: TagChip; tagUids: string[]; productUids?: string[] };

export type ProvisionedTag = {
  tagUid: string;
  chip: TagChip;
  /** The KeyVer the keys are for; null for a chip that holds no keys. */
  keyVersion: number | null;
  productUid: string | null;
  /** Only for NTAG 424 DNA, and only when the caller may see keys. */
  keys: SunKeys | null;
  /** The product's GS1 Digital Link path when it has a GTIN and a serial (one item): the tag's URL then uses it. */
  digitalLinkPath: string | null;
};

const TAG_UID = /^[0-9A-F]{14}$/;

/**
 * Records the batch (a UID another brand holds refuses it all: 409) and returns it with the keys when `withKeys`.
 * Provisioning a tag again is allowed: it takes the current key version (TAG_KEY_VERSION) and, if given, the new
 * product. The audit entry names the batch, never a key.
 */
export async function provisionTags(
  deps: { db: Knex; config: Pick<Config, "tags"> },
  brandId: number,
  actor: Actor,
  input: ProvisionInput,
  options: { withKeys: boolean },
): Promise<ProvisionedTag[]> {
  const tagUids = input.tagUids.map((uid) => uid.trim().toUpperCase());
  const productUids = input.productUids?.map((uid) => uid.trim().toUpperCase());
  const problems = batchProblems(tagUids, productUids);
  const productIds = productUids ? await productIdsByUid(deps.db, brandId, [...new Set(productUids)]) : new Map<string, number>();
  productUids?.forEach((uid, i) => {
    if (!productIds.has(uid)) problems.push({ field: `product_uids.${i}`, problem: `no product ${uid} in this brand` });
  });
  if (problems.length > 0) throw new ValidationError(problems.slice(0, 50), "Some tag or product UIDs cannot be provisioned; details name each.");

  const identifiers = productUids ? await identifiersByUid(deps.db, brandId, [...new Set(productUids)]) : new Map<string, Gs1Identifiers>();
  const keyVersion = deps.config.tags.keyVersion;
  await deps.db.transaction(async (trx) => {
    const held = await tagUidsHeldByOthers(trx, brandId, tagUids);
    if (held.length > 0) throw heldElsewhere(held);
    const rows = tagUids.map((tagUid, i) => ({ tagUid, productId: productUids ? productIds.get(productUids[i]!)! : null }));
    // A tag's binding follows the chain (a product's page assigns it there); provisioning may not move it, nor turn a
    // tag that has signed taps into a plain one, which would switch its check off.
    const { bound, downgraded } = await provisioningConflicts(trx, brandId, { chip: input.chip, rows });
    if (bound.length > 0) {
      const shown = bound.slice(0, 10).map((tag) => `${tag.tagUid} (on ${tag.productUid})`).join(", ");
      throw new ConflictError(`${bound.length === 1 ? "This tag is" : `${bound.length} of these tags are`} bound to another product: ${shown}. Assign it to the new product on that product's page, which records it on chain.`);
    }
    if (downgraded.length > 0) {
      throw new ConflictError(`${downgraded.slice(0, 10).join(", ")} ${downgraded.length === 1 ? "has" : "have"} signed taps as NTAG 424 DNA; provisioning ${downgraded.length === 1 ? "it" : "them"} as NTAG215 would switch the check off.`);
    }
    const written = new Set(await upsertProvisionedTags(trx, brandId, { chip: input.chip, keyVersion, rows }));
    // Another brand provisioned one of them in the meantime: the insert left it alone; undo the whole batch.
    if (written.size !== tagUids.length) throw heldElsewhere(tagUids.filter((uid) => !written.has(uid)));
    await recordAudit(trx, brandId, actor, {
      action: "tags.provisioned",
      target: null,
      details: {
        chip: input.chip,
        count: tagUids.length,
        key_version: input.chip === "NTAG424" ? keyVersion : null,
        keys_included: options.withKeys && input.chip === "NTAG424",
        products: productUids?.length ?? 0,
        tag_uids: tagUids.slice(0, 20),
      },
    });
  });

  const provider = tagKeyProvider(deps.config);
  const signing = input.chip === "NTAG424";
  return Promise.all(
    tagUids.map(async (tagUid, i) => ({
      tagUid,
      chip: input.chip,
      keyVersion: signing ? keyVersion : null,
      productUid: productUids?.[i] ?? null,
      keys: signing && options.withKeys ? await provider.keysFor(tagUid, keyVersion) : null,
      digitalLinkPath: itemLinkPath(identifiers.get(productUids?.[i] ?? "")),
    })),
  );
}

/** A GTIN with a serial names one item: its Digital Link can be a tag's URL (a GTIN alone may name many). */
function itemLinkPath(ids: Gs1Identifiers | undefined): string | null {
  return ids?.serial ? digitalLinkPath(ids) : null;
}

/**
 * The URL an encoding station writes to the tag: the product's scan page on the brand's own address (links.ts), or
 * its GS1 Digital Link there when it has a GTIN and serial (the resolver passes the SUN parameters on to the page:
 * docs/digital-link.md), with SDM mirror placeholders if it signs.
 */
export function urlTemplateOf(
  config: Pick<Config, "publicBaseUrl" | "domains">,
  chip: TagChip,
  productUid: string | null,
  brand: BrandAddress | null,
  digitalLink: string | null = null,
): string {
  const page = digitalLink ? `${brandBaseUrl(config, brand)}${digitalLink}` : productLinks(config, productUid ?? PRODUCT_UID_PLACEHOLDER, brand).scan_url;
  return chip === "NTAG424" ? `${page}?${SDM_MIRROR_QUERY}` : page;
}

/** The batch as the encoding station's CSV: one row a tag, keys in upper-case hex (empty when not shown). */
export function provisioningCsv(config: Pick<Config, "publicBaseUrl" | "domains">, tags: ProvisionedTag[], brand: BrandAddress | null): string {
  const hex = (key: Buffer | undefined) => (key ? key.toString("hex").toUpperCase() : "");
  return stringify(
    tags.map((tag) => [
      tag.tagUid,
      tag.chip,
      tag.keyVersion === null ? "" : String(tag.keyVersion),
      tag.productUid ?? "",
      urlTemplateOf(config, tag.chip, tag.productUid, brand, tag.digitalLinkPath),
      hex(tag.keys?.sdmMetaRead),
      hex(tag.keys?.sdmFileRead),
    ]),
    { header: true, columns: [...PROVISIONING_CSV_COLUMNS], record_delimiter: "\r\n" },
  );
}

function batchProblems(tagUids: string[], productUids: string[] | undefined): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (tagUids.length === 0) problems.push({ field: "tag_uids", problem: "must list at least one tag" });
  if (tagUids.length > PROVISION_MAX_TAGS) problems.push({ field: "tag_uids", problem: `at most ${PROVISION_MAX_TAGS} tags a batch` });
  const firstAt = new Map<string, number>();
  tagUids.forEach((uid, i) => {
    if (!TAG_UID.test(uid)) problems.push({ field: `tag_uids.${i}`, problem: "must be a 7-byte chip UID: 14 hexadecimal digits" });
    else if (firstAt.has(uid)) problems.push({ field: `tag_uids.${i}`, problem: `repeats tag_uids.${firstAt.get(uid)} (${uid})` });
    else firstAt.set(uid, i);
  });
  if (productUids && productUids.length !== tagUids.length) {
    problems.push({ field: "product_uids", problem: `must give one product per tag, in the same order (${productUids.length} for ${tagUids.length} tags)` });
  }
  return problems;
}

function heldElsewhere(uids: string[]): ConflictError {
  const shown = uids.slice(0, 10).join(", ");
  return new ConflictError(`${uids.length === 1 ? "This tag is" : `${uids.length} of these tags are`} registered to another brand: ${shown}${uids.length > 10 ? ", …" : ""}.`);
}
