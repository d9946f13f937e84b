// The one call of the provisioning form: POST /api/dashboard/tags/provision, answered with a CSV file rather than
// JSON. It goes through fetch with the client's session rules (same origin, CSRF token, a 401 ends the session)
// because the typed client parses JSON envelopes; the body is typed here from the contract.
import { ApiError, sessionEnded } from "../../api/client";
import { csrfToken } from "../../session";

export const PROVISION_PATH = "/api/dashboard/tags/provision";
/** The API's bound on one batch. */
export const MAX_TAGS = 1000;
export const CHIPS = [
  { value: "NTAG424", label: "NTAG 424 DNA (signs every tap: copies are detected)" },
  { value: "NTAG215", label: "NTAG215 (plain: a fixed UID anyone can copy)" },
] as const;
export type Chip = (typeof CHIPS)[number]["value"];

export type ProvisionRequest = { chip: Chip; tag_uids: string[]; product_uids?: string[] };
export type ProvisionedFile = { blob: Blob; filename: string; rows: number };

/** Asks for the batch's CSV (URL template and keys per tag); resolves with the file, or throws ApiError. */
export async function provisionTags(request: ProvisionRequest): Promise<ProvisionedFile> {
  const headers = new Headers({ "Content-Type": "application/json", Accept: "text/csv, application/json" });
  const token = csrfToken();
  if (token) headers.set("X-CSRF-Token", token);
  let response: Response;
  try {
    response = await fetch(PROVISION_PATH, { method: "POST", credentials: "same-origin", headers, body: JSON.stringify(request) });
  } catch {
    throw new ApiError(0, "NETWORK", "The dashboard could not reach the server. Check your connection and try again.");
  }
  if (!response.ok) {
    if (response.status === 401) sessionEnded();
    const body = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string; details?: Array<{ field?: string; problem?: string }>; request_id?: string } } | undefined;
    const error = body?.error;
    if (error?.code) throw new ApiError(response.status, error.code, error.message ?? "", error.details ?? [], error.request_id);
    throw new ApiError(response.status, "HTTP_ERROR", `The server answered ${response.status}. Try again in a moment.`);
  }
  const blob = await response.blob();
  const text = await blob.text();
  // The header row, then one row a tag.
  const rows = Math.max(0, text.split(/\r?\n/).filter((line) => line.trim() !== "").length - 1);
  return { blob, filename: filenameOf(response) ?? `tags-${request.chip.toLowerCase()}-${new Date().toISOString().slice(0, 10)}.csv`, rows };
}

function filenameOf(response: Response): string | undefined {
  const match = /filename="?([A-Za-z0-9._-]{1,100})"?/.exec(response.headers.get("Content-Disposition") ?? "");
  return match?.[1];
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

/** The lines of a pasted list: trimmed, blank lines dropped; UIDs upper case, tag UIDs without ':' or spaces. */
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
