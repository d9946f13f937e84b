// Operator command for NFC tags: provision a batch for a brand and get the encoding station's CSV (URL templates and
// the SUN keys of NTAG 424 DNA tags), as the dashboard's provisioning does for a brand's owner.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { getBrand } from "../../api/src/brands/service";
import { brandAddress } from "../../api/src/domains/service";
import { PROVISION_MAX_TAGS, provisionTags, provisioningCsv, urlTemplateOf } from "../../api/src/tags/provisioning";
import { TAG_CHIPS, type TagChip } from "../../api/src/tags/verdicts";
import { brandOption, requiredOption, serviceConfig, stringOption, UsageError, type AdminCommand, type CommandContext } from "./command";

/** A list option: a file (one value a line, or separated by commas or spaces) if one exists at that path, else a comma list. */
function listOption(context: CommandContext, name: string): string[] | undefined {
  const value = stringOption(context, name);
  if (value === undefined) return undefined;
  const text = existsSync(value) ? readFileSync(value, "utf8") : value;
  const items = text.split(/[\s,;]+/).filter((item) => item !== "");
  if (items.length === 0) throw new UsageError(`--${name} lists nothing`);
  if (items.length > PROVISION_MAX_TAGS) throw new UsageError(`--${name} lists ${items.length} values: at most ${PROVISION_MAX_TAGS} a batch`);
  return items;
}

const provisionCommand: AdminCommand = {
  name: "provision-tags",
  summary: "provision a batch of NFC tags for a brand: a CSV with each tag's URL template and (NTAG424) SUN keys",
  options: {
    ...brandOption,
    chip: { type: "string", description: `${TAG_CHIPS.join(" | ")} (default NTAG424)` },
    uids: { type: "string", required: true, description: `tag UIDs (14 hex digits): a file, one a line, or a comma list; at most ${PROVISION_MAX_TAGS}` },
    products: { type: "string", description: "product UIDs, one per tag in the same order (binds each tag): a file or a comma list" },
    out: { type: "string", description: "write the CSV to this file (mode 600: it holds keys) instead of printing it" },
  },
  async run(context) {
    const chip = (stringOption(context, "chip") ?? "NTAG424").toUpperCase();
    if (!(TAG_CHIPS as readonly string[]).includes(chip)) throw new UsageError(`--chip must be one of ${TAG_CHIPS.join(", ")}`);
    const cfg = serviceConfig(context);
    const brand = await getBrand(context.db, requiredOption(context, "brand"));
    const tags = await provisionTags(
      { db: context.db, config: cfg },
      brand.id,
      { system: "operator CLI" },
      { chip: chip as TagChip, tagUids: listOption(context, "uids")!, productUids: listOption(context, "products") },
      { withKeys: true },
    );
    const address = await brandAddress(context.db, brand.id);
    const csv = provisioningCsv(cfg, tags, address);
    const out = stringOption(context, "out");
    if (out) writeFileSync(out, csv, { mode: 0o600 });
    const hex = (key: Buffer | undefined) => (key ? key.toString("hex").toUpperCase() : null);
    return {
      text: out ? `Provisioned ${tags.length} ${chip} tags for ${brand.slug}; the CSV (with keys: keep it secret) is in ${out}.` : csv.trimEnd(),
      json: tags.map((tag) => ({
        tag_uid: tag.tagUid,
        chip: tag.chip,
        key_version: tag.keyVersion,
        product_uid: tag.productUid,
        url_template: urlTemplateOf(cfg, tag.chip, tag.productUid, address),
        sdm_meta_read_key: hex(tag.keys?.sdmMetaRead),
        sdm_file_read_key: hex(tag.keys?.sdmFileRead),
      })),
    };
  },
};

export const commands: AdminCommand[] = [provisionCommand];
