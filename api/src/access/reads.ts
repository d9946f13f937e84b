// Access classes on the read paths (docs/access.md): the EN 18222 reads (both representations, element reads, a
// version as of a date, a version's exact bytes) and the public record JSON. Each takes the passport as the service
// renders it whole, and serves what the reader may see, with an `access` block naming what was withheld; a read
// above the public is logged. The other read paths (pages, badge, PDF, credential, Catena-X) go through
// `visiblePublicRecord` or `publicContentOf`.
import { heldAccess } from "../backup/held";
import { compiledOnce } from "../db/knex";
import type { AppDeps } from "../deps";
import { AccessClassRequiredError, NotFoundError } from "../errors";
import type { DataElement } from "../dpp/elements";
import { HEADER_FIELDS } from "../dpp/representation";
import type { PassportContent } from "../passports/content";
import type { ProductRow } from "../products/products.repo";
import { atLeast, classOfPath, visibleContent, type AccessClass, type Overrides, type Visible } from "./classes";
import { readerClassFor, type Reader } from "./readers";
import { assertElementReadable, logRead, visibleRecord, type AccessBlock, type ReadOperation, type ReadPassport } from "./service";

export { visibleRecord };

export type PassportAccess = { passport: ReadPassport; overrides: Overrides };

/**
 * What passportAccess would read, from a product row that carries its brand's overrides (a point read of
 * products.repo); undefined for a row without them, which passportAccess then reads.
 */
export function accessOfProduct(product: ProductRow): PassportAccess | undefined {
  if (product.access_overrides === undefined) return undefined;
  return {
    passport: { id: product.id, brand_id: product.brand_id, uid: product.uid, dpp_id: product.dpp_id },
    overrides: (product.access_overrides ?? {}) as Overrides,
  };
}

/** The passport's ids and its brand's overrides, in one query; `by` names the passport by its id or its UID. */
export async function passportAccess(deps: Pick<AppDeps, "db">, by: { dppId: string } | { uid: string }): Promise<PassportAccess> {
  const [row] = "dppId" in by ? await accessByDppId(deps.db, { key: by.dppId }) : await accessByUid(deps.db, { key: by.uid.toUpperCase() });
  if (!row) {
    // A back-up's copy of another deployment's passport, with what that deployment withheld from the public.
    const held = await heldAccess(deps, by);
    if (held) return held;
    throw new NotFoundError("Digital product passport");
  }
  return { passport: { id: row.id, brand_id: row.brand_id, uid: row.uid, dpp_id: row.dpp_id }, overrides: row.overrides ?? {} };
}

/** Built once each (compiledOnce): every EN 18222 read runs one of them. */
const accessBy = (column: "p.dpp_id" | "p.uid") =>
  compiledOnce<{ id: number; brand_id: number; uid: string; dpp_id: string; overrides: Record<string, AccessClass> | null }, "key">((db, param) =>
    db("app.products as p")
      .leftJoin("app.access_overrides as o", "o.brand_id", "p.brand_id")
      .where(column, param("key"))
      .groupBy("p.id")
      .limit(1)
      .select("p.id", "p.brand_id", "p.uid", "p.dpp_id", db.raw("json_object_agg(o.element, o.access_class) FILTER (WHERE o.element IS NOT NULL) AS overrides")),
  );
const accessByDppId = accessBy("p.dpp_id");
const accessByUid = accessBy("p.uid");

type DppRepresentation = { digitalProductPassportId: string; contentSpecificationIds: string[]; elements?: DataElement[] } & Record<string, unknown>;

/**
 * An EN 18222 passport (compressed or full, as dpp/service.ts renders it whole) as `reader` may see it, with
 * `access`; the read is logged when the reader is above the public. `known`: the passport's access as the read had it
 * (accessOfProduct), else read here.
 */
export async function visibleDpp<T extends object>(deps: Pick<AppDeps, "db">, reader: Reader, rendered: T, operation: ReadOperation, known?: PassportAccess): Promise<T & { access: AccessBlock }> {
  const dpp = rendered as unknown as DppRepresentation;
  const { passport, overrides } = known ?? (await passportAccess(deps, { dppId: dpp.digitalProductPassportId }));
  const readerClass = readerClassFor(reader, passport.brand_id);
  const schema = dpp.contentSpecificationIds[0]!;
  let withheld: string[];
  let shown: string[];
  let out: Record<string, unknown>;
  if (dpp.elements) {
    const visible = visibleElements(dpp.elements, readerClass, overrides);
    ({ withheld, shown } = visible);
    out = { ...dpp, elements: visible.elements };
  } else {
    const visible = visibleContent(dpp[schema], readerClass, overrides);
    ({ withheld, shown } = visible);
    out = { ...dpp, [schema]: visible.content };
  }
  await logRead(deps, reader, readerClass, passport, operation, { shown });
  return { ...out, access: { class: readerClass, withheld } } as T & { access: AccessBlock };
}

/**
 * The full representation's element tree as a reader may see it: the section's root collection, whose descendants'
 * element ids joined by dots are the element paths (`textile.stages.0.facility.name`).
 */
export function visibleElements(elements: DataElement[], readerClass: AccessClass, overrides: Overrides, base = ""): { elements: DataElement[]; withheld: string[]; shown: string[] } {
  const withheld: string[] = [];
  const shown: string[] = [];
  const walk = (element: DataElement, path: string, parentClass: AccessClass): DataElement | undefined => {
    let cls = parentClass;
    if (path !== "") {
      cls = classOfPath(path, overrides);
      if (!atLeast(readerClass, cls)) {
        withheld.push(path);
        return undefined;
      }
      if (cls !== "public" && parentClass === "public") shown.push(path);
    }
    if (!element.elements) return element;
    const children = element.elements.flatMap((child) => {
      const kept = walk(child, path === "" ? child.elementId : `${path}.${child.elementId}`, cls);
      return kept ? [kept] : [];
    });
    return { ...element, elements: children };
  };
  const kept = elements.flatMap((root) => {
    const visible = walk(root, base, "public");
    return visible ? [visible] : [];
  });
  return { elements: kept, withheld: withheld.sort(), shown: shown.sort() };
}

/**
 * ReadDataElement as a reader may see it: an element above its class is refused (403 ACCESS_CLASS_REQUIRED); one
 * holding such elements comes without them. `read` renders the element from the content it is given.
 */
export async function visibleElement<T>(
  deps: Pick<AppDeps, "db">,
  reader: Reader,
  dppId: string,
  path: string,
  read: () => Promise<T>,
): Promise<{ body: T; access: AccessBlock }> {
  const { passport, overrides } = await passportAccess(deps, { dppId });
  const readerClass = readerClassFor(reader, passport.brand_id);
  const steps = path.split(".");
  const isContent = !(steps.length === 1 && HEADER_FIELD_NAMES.has(steps[0]!));
  const inSection = steps[0]?.startsWith("passport-registry/") ? steps.slice(1).join(".") : path;
  if (isContent && inSection !== "") assertElementReadable(inSection, readerClass, overrides);
  const body = await read();
  if (!isContent) return { body, access: { class: readerClass, withheld: [] } };
  let visible: { withheld: string[]; shown: string[] };
  let filtered: unknown;
  if (isDataElement(body)) {
    const result = visibleElements([body as unknown as DataElement], readerClass, overrides, inSection);
    visible = result;
    filtered = result.elements[0];
  } else {
    const [id] = Object.keys(body as object);
    const result = visibleContent((body as Record<string, unknown>)[id!], readerClass, overrides, inSection);
    visible = result;
    filtered = { [id!]: result.content };
  }
  await logRead(deps, reader, readerClass, passport, "ReadDataElement", visible);
  return { body: filtered as T, access: { class: readerClass, withheld: visible.withheld } };
}

/**
 * The exact bytes of a version, served only when the reader may see every element in them (they hash to the anchor
 * only whole): otherwise 403 ACCESS_CLASS_REQUIRED naming the withheld elements.
 */
export async function visibleVersionBytes(deps: Pick<AppDeps, "db">, reader: Reader, dppId: string, bytes: string): Promise<string> {
  const { passport, overrides } = await passportAccess(deps, { dppId });
  const readerClass = readerClassFor(reader, passport.brand_id);
  const visible = visibleContent(JSON.parse(bytes) as PassportContent, readerClass, overrides);
  if (visible.withheld.length > 0) {
    throw new AccessClassRequiredError(
      `This version holds elements this reader may not see (${visible.withheld.join(", ")}): its exact bytes, and so the check of its hash, are for readers who may see them all (docs/access.md).`,
      visible.withheld.map((path) => ({ field: path, problem: "is withheld from this reader" })),
    );
  }
  await logRead(deps, reader, readerClass, passport, "ReadDPPVersionContent", visible);
  return bytes;
}

/**
 * The public record of a UID as a reader may see it; logged above the public. Every read path that prints a record
 * goes through here: GET /api/dpp/{uid} ("PublicRecord"), the UNTP credential ("Credential"), the Catena-X export
 * ("CatenaXExport"), and with PUBLIC_READER the pages and the badge (documents for anyone, never logged).
 */
export async function visiblePublicRecord<R extends { uid: string; content: PassportContent; manufacturer: unknown }>(
  deps: Pick<AppDeps, "db">,
  reader: Reader,
  record: R,
  operation: ReadOperation = "PublicRecord",
  known?: PassportAccess,
) {
  const { passport, overrides } = known ?? (await passportAccess(deps, { uid: record.uid }));
  const readerClass = readerClassFor(reader, passport.brand_id);
  const visible = visibleContent(record.content, readerClass, overrides);
  await logRead(deps, reader, readerClass, passport, operation, visible);
  const filtered = visibleRecord(record, { content: visible.content, access: { class: readerClass, withheld: visible.withheld } });
  return withStagesFiltered(filtered, visible.withheld);
}

/**
 * The content of a UID as the public sees it, for a document anyone may fetch that is built from the content itself
 * rather than the record (the certificate PDF): the brand's restrictions applied, never logged.
 */
export async function publicContentOf<T>(deps: Pick<AppDeps, "db">, uid: string, content: T): Promise<Visible<T>> {
  const { overrides } = await passportAccess(deps, { uid });
  return visibleContent(content, "public", overrides);
}

/**
 * A record's `textile_stages` (the stages beside the content, with their facilities' confirmations) lose what the
 * content lost: a withheld facility name or identifier, and the confirmation's details that repeat them.
 */
function withStagesFiltered<R extends object>(record: R, withheld: string[]): R {
  const stages = (record as { textile_stages?: unknown }).textile_stages;
  if (!Array.isArray(stages) || withheld.length === 0) return record;
  const gone = new Set(withheld);
  const filtered = stages.map((stage: Record<string, unknown>) => {
    const at = `textile.stages.${String(stage.index)}`;
    if (gone.has("textile") || gone.has("textile.stages") || gone.has(at)) return undefined;
    const facility = { ...(stage.facility as Record<string, unknown>) };
    let hid = false;
    for (const key of Object.keys(facility)) {
      if (gone.has(`${at}.facility`) || gone.has(`${at}.facility.${key}`)) {
        delete facility[key];
        hid = true;
      }
    }
    const out: Record<string, unknown> = { ...stage, facility };
    for (const key of ["started", "completed"]) {
      if (gone.has(`${at}.${key}`)) {
        delete out[key];
        hid = true;
      }
    }
    // The confirmation's details repeat the stage as declared. Its factory id and transaction stay: the confirming
    // event is on chain with the factory's registry id, public by nature (docs/access.md).
    if (hid && out.confirmation && typeof out.confirmation === "object") out.confirmation = { ...(out.confirmation as object), details: null };
    return out;
  });
  return { ...record, textile_stages: filtered.filter((stage) => stage !== undefined) };
}

const HEADER_FIELD_NAMES: ReadonlySet<string> = new Set(HEADER_FIELDS);

const isDataElement = (body: unknown) => typeof body === "object" && body !== null && "objectType" in body && "dictionaryReference" in body;
