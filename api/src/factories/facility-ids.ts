// A factory's facility identifiers, for the EN 18223 header's `facilityId`: its GS1 GLN and its Open Supply Hub id.
// They sit beside the profile, not in it: the profile's canonical JSON is what the registry's metadata hash anchors
// on chain (service.ts), and adding them there would change every registered factory's hash. They identify the
// place, they do not describe it, so setting one needs no new anchor.
import type { Knex } from "../db/knex";
import { NotFoundError, ValidationError, type ErrorDetail } from "../errors";
import { glnProblem } from "../gs1/gln";
import { requeueForHeaderChange } from "../registry/registrations.repo";
import { findFacilityIds, updateFacilityIds } from "./facility-ids.repo";

/** Open Supply Hub ids: country code, year and day of registration (7 digits), 6 letters or digits: BD2019085TJ0JW3. */
export const OS_ID_PATTERN = /^[A-Z]{2}[0-9]{7}[A-Z0-9]{6}$/;

export type FacilityIds = { gln: string | null; osId: string | null };
/** A string sets an identifier, empty or null clears it, left out keeps it. */
export type FacilityIdsPatch = { gln?: string | null; osId?: string | null };

export function osIdProblem(value: string): string | undefined {
  return OS_ID_PATTERN.test(value) ? undefined : "must be an Open Supply Hub id: a two-letter country code, 7 digits and 6 letters or digits (e.g. BD2019085TJ0JW3)";
}

/** Each value normalised (spaces a person copied in dropped, upper case; empty is null); a 422 naming every field that is wrong. */
function parsePatch(patch: FacilityIdsPatch, fields: { gln: string; osId: string }): Partial<{ gln: string | null; os_id: string | null }> {
  const problems: ErrorDetail[] = [];
  const parsed: Partial<{ gln: string | null; os_id: string | null }> = {};
  const check = (raw: string | null | undefined, field: string, problemOf: (value: string) => string | undefined) => {
    if (raw === undefined) return undefined;
    const value = (raw ?? "").replace(/\s+/g, "").toUpperCase();
    if (value === "") return null;
    const problem = problemOf(value);
    if (problem) problems.push({ field, problem });
    return value;
  };
  const gln = check(patch.gln, fields.gln, glnProblem);
  const osId = check(patch.osId, fields.osId, osIdProblem);
  if (problems.length > 0) throw new ValidationError(problems, "The facility identifiers are not valid.");
  if (gln !== undefined) parsed.gln = gln;
  if (osId !== undefined) parsed.os_id = osId;
  return parsed;
}

export async function facilityIdsOf(db: Knex, factoryId: number): Promise<FacilityIds> {
  const row = await findFacilityIds(db, factoryId);
  if (!row) throw new NotFoundError("Factory profile");
  return { gln: row.gln, osId: row.os_id };
}

/**
 * Sets or clears a factory's GLN and Open Supply Hub id; 404 for a factory without a profile, 422 naming each field
 * that is wrong (`fields` names them as the caller's input does: `gln`/`os_id` on the API, `--gln`/`--os-id` in the
 * CLI). A change queues the registrations of the factory's passports again where their brand registers automatically.
 */
export async function setFacilityIds(
  db: Knex,
  factoryId: number,
  patch: FacilityIdsPatch,
  fields: { gln: string; osId: string } = { gln: "gln", osId: "os_id" },
): Promise<FacilityIds> {
  const update = parsePatch(patch, fields);
  const row = await db.transaction(async (trx) => {
    const before = await findFacilityIds(trx, factoryId);
    if (!before || Object.keys(update).length === 0) return before;
    const after = await updateFacilityIds(trx, factoryId, update);
    // The registry holds them as the registrations' facilitiesId: with automatic registration on, they are sent again.
    if (after && (after.gln !== before.gln || after.os_id !== before.os_id)) await requeueForHeaderChange(trx, { factoryId });
    return after;
  });
  if (!row) throw new NotFoundError("Factory profile");
  return { gln: row.gln, osId: row.os_id };
}
