// The passports a back-up holds, read through the same EN 18222 operations as its own (dpp/service.ts asks here when
// a passport is not its own): the header as the primary last served it, and the content section and anchor of the
// latest verified version, whose bytes are those the chain's hash was computed over.
import type { AppDeps } from "../deps";
import type { ProductKey } from "../dpp/dpp.repo";
import { elementPattern } from "../dpp/elements";
import { representDpp, type DppAnchor, type DppHeader, type Representation } from "../dpp/representation";
import { NotFoundError } from "../errors";
import type { PassportContent } from "../passports/content";
import { heldAccessRow, heldDppIdByKey, heldPassport, heldVersions, type HeldPassport, type HeldVersion } from "./backup.repo";

type Deps = Pick<AppDeps, "config" | "db" | "chain">;

/** Whether this deployment backs anything up: otherwise nothing here costs a query. */
const backsUp = (deps: Deps) => deps.config.backup.primaries.length > 0;

async function held(deps: Deps, dppId: string): Promise<{ passport: HeldPassport; versions: HeldVersion[] } | undefined> {
  if (!backsUp(deps)) return undefined;
  const [passport, versions] = await Promise.all([heldPassport(deps.db, dppId), heldVersions(deps.db, dppId)]);
  return passport && versions.length > 0 ? { passport, versions } : undefined;
}

function present(deps: Deps, passport: HeldPassport, version: HeldVersion, representation: Representation, lastUpdate?: Date) {
  const content = JSON.parse(version.content) as PassportContent;
  const anchor: DppAnchor = {
    status: "anchored",
    chainId: deps.config.chainId,
    contractAddress: deps.chain.contracts().deployment.contracts.ProductPassport.address,
    tokenId: passport.token_id,
    version: version.version,
    dataHash: version.data_hash,
    transactionHash: version.tx_hash,
    hashRule: "keccak256(RFC 8785 canonical JSON of the content section)",
  };
  // The header is the primary's latest; its content specification is this version's, which keys the section served
  // (and which the access classes filter: an older version under a newer header's key would go out unfiltered).
  const header = { ...passport.header, contentSpecificationIds: [content.schema], ...(lastUpdate ? { lastUpdate: lastUpdate.toISOString() } : {}) } as DppHeader;
  return representDpp(header, content, anchor, representation, {});
}

/** ReadDPPById of a held passport; undefined when none is held under that id. */
export async function heldDpp(deps: Deps, dppId: string, representation: Representation) {
  const copy = await held(deps, dppId);
  return copy && present(deps, copy.passport, copy.versions.at(-1)!, representation);
}

/** ReadDPPByProductId among held passports: the most general the identifier names. */
export async function heldDppByProductId(deps: Deps, key: ProductKey, representation: Representation) {
  if (!backsUp(deps)) return undefined;
  const dppId = await heldDppIdByKey(deps.db, key);
  return dppId === undefined ? undefined : heldDpp(deps, dppId, representation);
}

/** ReadDPPVersionByIdAndDate of a held passport: the verified version current at `at`. */
export async function heldDppAt(deps: Deps, dppId: string, at: Date, representation: Representation) {
  const copy = await held(deps, dppId);
  if (!copy) return undefined;
  const version = copy.versions.filter((v) => v.valid_from.getTime() <= at.getTime()).at(-1);
  if (!version) throw new NotFoundError(`Version of this passport at ${at.toISOString()} (it was not yet anchored then)`);
  return present(deps, copy.passport, version, representation, version.valid_from);
}

/** The verified versions held of a passport, as the primary lists them (their anchors as this back-up found them). */
export async function heldVersionList(deps: Deps, dppId: string) {
  const copy = await held(deps, dppId);
  return copy?.versions.map((v) => ({
    version: v.version,
    validFrom: v.valid_from.toISOString(),
    dataHash: v.data_hash,
    transactionHash: v.tx_hash,
    blockNumber: Number(v.block_number),
    contentKept: true,
  }));
}

/** The exact bytes of a held version; undefined when the passport is not held, NOT_FOUND when the version is not. */
export async function heldVersionContent(deps: Deps, dppId: string, version: number): Promise<string | undefined> {
  const copy = await held(deps, dppId);
  if (!copy) return undefined;
  const record = copy.versions.find((v) => v.version === version);
  if (!record) throw new NotFoundError(`Version ${version} of this passport`);
  return record.content;
}

/** The held passport, or NOT_FOUND as for a passport this deployment has never had. */
export function orNotFound<T>(value: T | undefined): T {
  if (value === undefined) throw new NotFoundError("Digital product passport");
  return value;
}

/**
 * A held passport as access classes see it (access/reads.ts): no product or brand of this deployment, and each element
 * the primary withheld from the public shown to authorities only (a legitimate-interest reader of the primary sees
 * less here, never more).
 */
export async function heldAccess(deps: Pick<AppDeps, "db">, by: { dppId: string } | { uid: string }) {
  const row = await heldAccessRow(deps.db, by);
  if (!row) return undefined;
  // Withheld paths name array items (certifications.1.number); overrides name them all (certifications.*.number).
  const overrides = Object.fromEntries(row.public_withheld.map((path) => [elementPattern(path), "authority" as const]));
  return { passport: { id: null, brand_id: null, uid: row.uid, dpp_id: row.dpp_id }, overrides };
}
