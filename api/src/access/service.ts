// Applying access classes to a read (docs/access.md): the content a reader may see, the `access` block that says
// what was left out, and the access log entry of every read above the public.
import type { AppDeps } from "../deps";
import { AccessClassRequiredError } from "../errors";
import type { PassportContent } from "../passports/content";
import { overridesOf, insertAccessLog } from "./access.repo";
import { atLeast, classOfPath, visibleContent, type AccessClass, type Overrides, type Visible } from "./classes";
import { readerClassFor, type Reader } from "./readers";

/** What a response says of the reader's view: its class, and the element paths left out (so an auditor knows). */
export type AccessBlock = { class: AccessClass; withheld: string[] };

/** The passport a read is of: its row's ids, enough to find the brand's overrides and log the read. */
/** A passport as a read names it; a back-up's copy of another deployment's passport has no product or brand here (backup/held.ts). */
export type ReadPassport = { id: number | null; brand_id: number | null; uid: string; dpp_id: string };

/** The read operations the log names. */
export type ReadOperation =
  | "ReadDPPById"
  | "ReadDPPByProductId"
  | "ReadDPPVersionByIdAndDate"
  | "ReadDataElement"
  | "ReadDPPVersionContent"
  | "PublicRecord"
  | "Credential"
  | "CatenaXExport";

/** The brand's overrides, and the class `reader` reads this passport as. */
export async function accessOf(deps: Pick<AppDeps, "db">, reader: Reader, passport: ReadPassport): Promise<{ readerClass: AccessClass; overrides: Overrides }> {
  return { readerClass: readerClassFor(reader, passport.brand_id), overrides: passport.brand_id === null ? {} : await overridesOf(deps.db, passport.brand_id) };
}

/**
 * The content `reader` may see of `passport`, with the access block; a read above the public is logged (who, which
 * passport, which non-public elements it was shown, when). The brand reading its own passports is not logged.
 */
export async function readableContent<T = PassportContent>(
  deps: Pick<AppDeps, "db">,
  reader: Reader,
  passport: ReadPassport,
  content: T,
  operation: ReadOperation,
): Promise<{ content: T; access: AccessBlock }> {
  const { readerClass, overrides } = await accessOf(deps, reader, passport);
  const visible = visibleContent(content, readerClass, overrides);
  await logRead(deps, reader, readerClass, passport, operation, visible);
  return { content: visible.content, access: { class: readerClass, withheld: visible.withheld } };
}

/** Logs a read by a reader above the public (reader keys, role credentials, authority keys). */
export async function logRead(deps: Pick<AppDeps, "db">, reader: Reader, readerClass: AccessClass, passport: ReadPassport, operation: ReadOperation, visible: Pick<Visible<unknown>, "shown">) {
  if (reader.class === "public" || reader.class === "brand" || readerClass === "public") return;
  await insertAccessLog(deps.db, {
    brand_id: passport.brand_id,
    product_id: passport.id,
    uid: passport.uid,
    dpp_id: passport.dpp_id,
    reader_class: reader.class,
    reader_kind: reader.kind,
    reader_id: reader.id,
    reader_label: reader.label,
    reader_type: reader.class === "legitimate-interest" ? reader.readerType : null,
    operation,
    elements: visible.shown,
  });
}

/** Refuses an element a reader may not see (403 ACCESS_CLASS_REQUIRED naming the class it needs). */
export function assertElementReadable(path: string, readerClass: AccessClass, overrides: Overrides): void {
  const needed = classOfPath(path, overrides);
  if (!atLeast(readerClass, needed)) {
    throw new AccessClassRequiredError(`The element ${path} is shown to ${needed} readers only (docs/access.md says how to read as one).`, [
      { field: path, problem: `needs ${needed}` },
    ]);
  }
}

/**
 * The public record as a reader sees it: `content` filtered, the maker beside it left out with `content.manufacturer`,
 * and the access block. Exported for the other read paths (pages, PDF, credential, Catena-X) to apply the same way.
 */
export function visibleRecord<R extends { content: PassportContent; manufacturer: unknown }>(record: R, visible: { content: PassportContent; access: AccessBlock }) {
  const { manufacturer, ...rest } = record;
  return {
    ...rest,
    content: visible.content,
    ...(visible.access.withheld.includes("manufacturer") ? {} : { manufacturer: withoutWithheld(manufacturer, "manufacturer", visible.access.withheld) }),
    access: visible.access,
  };
}

/** The record's `manufacturer` (a copy of `content.manufacturer` with the maker's verification beside it) without the fields the content lost. */
function withoutWithheld(value: unknown, path: string, withheld: string[]): unknown {
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const element of withheld) if (element.startsWith(`${path}.`)) delete copy[element.slice(path.length + 1)];
  return copy;
}

// What the dashboard's access screen reads and changes (routes call services, not repos).
export { accessLogPage, listReaderKeys, overridesOf, replaceOverrides, revokeReaderKey, type AccessLogRow, type ReaderKeyRow } from "./access.repo";
