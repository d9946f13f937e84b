// A brand's economic operator identifier (ESPR Annex III; the EN 18223 header's `economicOperatorId`): its EORI or,
// failing one, its GS1 GLN. Checked and saved (audited) the same way from the dashboard and the operator CLI.
import { recordAudit, type Actor } from "../audit/service";
import type { Knex } from "../db/knex";
import { ValidationError } from "../errors";
import { glnProblem } from "../gs1/gln";
import { isCountryCode } from "../products/defaults";
import { requeueForHeaderChange } from "../registry/registrations.repo";
import { findEconomicOperatorId, lockEconomicOperatorId, updateEconomicOperatorId } from "./economic-operator.repo";

export type OperatorIdScheme = "eori" | "gln";
export type EconomicOperatorId = { value: string; scheme: OperatorIdScheme };

/** Longest input taken before checking (an EORI is at most 17 characters; room for spaces a person copied in). */
export const ECONOMIC_OPERATOR_INPUT_MAX = 40;

/**
 * EORI prefixes that are not ISO 3166-1 codes: XI is Northern Ireland's (EU customs code for traders there under the
 * Windsor Framework).
 */
const EORI_EXTRA_PREFIXES = new Set(["XI"]);

const EXPECTED = "must be an EORI (a two-letter country code and up to 15 letters or digits, e.g. DE123456789012345) or a GLN (13 digits)";

/** The stored form of what a person typed: spaces dropped (EORIs and GLNs have none), upper case. */
export function normaliseOperatorId(input: string): string {
  return input.replace(/\s+/g, "").toUpperCase();
}

export const schemeOf = (value: string): OperatorIdScheme => (/^[0-9]+$/.test(value) ? "gln" : "eori");

/** Why a normalised identifier is refused, in words a person can act on; undefined when it is an EORI or a GLN. */
export function economicOperatorIdProblem(value: string): string | undefined {
  if (/^[0-9]+$/.test(value)) return value.length === 13 ? glnProblem(value) : EXPECTED;
  if (!/^[A-Z]{2}[A-Z0-9]{1,15}$/.test(value)) return EXPECTED;
  const country = value.slice(0, 2);
  if (!isCountryCode(country) && !EORI_EXTRA_PREFIXES.has(country)) return `must start with a two-letter ISO 3166 country code (${country} is not one), as an EORI does`;
  return undefined;
}

/** The identifier in `input`, normalised; null for empty input (which clears it); a 422 on `field` otherwise. */
export function parseEconomicOperatorId(input: string | null, field = "economic_operator_id"): EconomicOperatorId | null {
  const value = normaliseOperatorId(input ?? "");
  if (value === "") return null;
  const problem = economicOperatorIdProblem(value);
  if (problem) throw new ValidationError([{ field, problem }], "The economic operator id is not an EORI or a GLN.");
  return { value, scheme: schemeOf(value) };
}

const asId = (value: string | null): EconomicOperatorId | null => (value ? { value, scheme: schemeOf(value) } : null);

export async function economicOperatorOf(db: Knex, brandId: number): Promise<EconomicOperatorId | null> {
  return asId(await findEconomicOperatorId(db, brandId));
}

/**
 * Sets (or, with empty input, clears) the brand's identifier; a 422 names what is wrong. Audited when it changes:
 * passports show it as who places the product on the market, so who changed it and from what is kept. With automatic
 * registration on, the brand's registered passports are queued to be registered again with it (docs/registry.md).
 */
export async function setEconomicOperatorId(
  db: Knex,
  brand: { id: number; slug: string },
  actor: Actor,
  input: string | null,
  field = "economic_operator_id",
): Promise<EconomicOperatorId | null> {
  const next = parseEconomicOperatorId(input, field);
  await db.transaction(async (trx) => {
    const before = await lockEconomicOperatorId(trx, brand.id);
    const after = next?.value ?? null;
    if (before === after) return;
    await updateEconomicOperatorId(trx, brand.id, after);
    await recordAudit(trx, brand.id, actor, {
      action: after === null ? "economic_operator.cleared" : "economic_operator.updated",
      target: after,
      details: { before, after, scheme: next?.scheme ?? null },
    });
    // The registry holds it as the registrations' reoId: with automatic registration on, they are sent again.
    await requeueForHeaderChange(trx, { brandId: brand.id });
  });
  return next;
}
