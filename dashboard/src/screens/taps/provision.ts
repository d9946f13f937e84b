// The provisioning form's rules and its one call: POST /api/dashboard/tags/provision answers with a CSV file, read
// as text through the typed client and handed to the browser's download.
import { api, textOf } from "../../api/client";
import type { BodyOf } from "../../api/types";

/** The API's bound on one batch. */
export const MAX_TAGS = 1000;
export const CHIPS = [
  { value: "NTAG424", label: "NTAG 424 DNA (signs each tap)" },
  { value: "NTAG215", label: "NTAG215 (plain)" },
] as const;
export type Chip = (typeof CHIPS)[number]["value"];

export type ProvisionRequest = BodyOf<"/api/dashboard/tags/provision", "post">;
export type ProvisionedFile = { blob: Blob; filename: string; rows: number };

/** Asks for the batch's CSV (URL template and, for owners and admins, keys per tag); throws ApiError if refused. */
export async function provisionTags(request: ProvisionRequest): Promise<ProvisionedFile> {
  const csv = await textOf(api.POST("/api/dashboard/tags/provision", { body: request, parseAs: "text" }));
  // The header row, then one row a tag.
  const rows = Math.max(0, csv.split(/\r?\n/).filter((line) => line.trim() !== "").length - 1);
  // The name the server gives in Content-Disposition, which a fetch does not apply by itself.
  const filename = `tags-${request.chip.toLowerCase()}-${new Date().toISOString().slice(0, 10)}.csv`;
  return { blob: new Blob([csv], { type: "text/csv" }), filename, rows };
}

/** Saves `file` through the browser's download, as a link with a download name would. */
export function saveFile(file: ProvisionedFile): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = file.filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started; the object URL would otherwise keep the keys in memory.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The lines of a pasted list: trimmed, blank lines dropped, upper case; tag UIDs also without ':' or spaces. */
export function linesOf(text: string, kind: "tag" | "product"): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => (kind === "tag" ? line.replace(/[\s:]/g, "") : line.trim()).toUpperCase())
    .filter((line) => line !== "");
}

const TAG_UID = /^[0-9A-F]{14}$/;
const PRODUCT_UID = /^[A-Z0-9]{2,10}-[A-Z0-9]{4,32}$/;

/** The form's own checks, the same as the API's, so a typo is found before a round trip: problems by field. */
export function problemsOf(tagUids: string[], productUids: string[]): { tags?: string; products?: string } {
  const problems: { tags?: string; products?: string } = {};
  const badTag = tagUids.findIndex((tag) => !TAG_UID.test(tag));
  const duplicate = tagUids.findIndex((tag, index) => tagUids.indexOf(tag) !== index);
  if (tagUids.length === 0) problems.tags = "Paste at least one tag UID.";
  else if (tagUids.length > MAX_TAGS) problems.tags = `${tagUids.length} tag UIDs: at most ${MAX_TAGS} a batch. Split the list.`;
  else if (badTag >= 0) problems.tags = `Line ${badTag + 1} (${tagUids[badTag]!.slice(0, 40)}) is not a 7-byte chip UID: 14 hexadecimal digits, e.g. 04A1B2C3D4E5F6.`;
  else if (duplicate >= 0) problems.tags = `${tagUids[duplicate]} is listed twice.`;
  const badProduct = productUids.findIndex((uid) => !PRODUCT_UID.test(uid));
  if (badProduct >= 0) problems.products = `Line ${badProduct + 1} (${productUids[badProduct]!.slice(0, 50)}) is not a product UID such as DEMO-7K3M9Q2X.`;
  else if (productUids.length > 0 && productUids.length !== tagUids.length)
    problems.products = `${productUids.length} product UIDs for ${tagUids.length} tags: give one product a tag, line by line, or none at all.`;
  return problems;
}
