// Validators of the vendored schemas: UNTP DPP 0.6.0 (JSON Schema 2020-12) and Catena-X generic DPP 7.0.0 (draft-04),
// compiled once on first use, for the tests that check every credential and export against them (production never validates its own output).
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { fromDraft04 } from "../../api/src/interop/catena-x-schema";
import { vendoredJson } from "../../api/src/interop/contexts";

export type SchemaCheck = { valid: boolean; errors: ErrorObject[] };

let untp: ValidateFunction | undefined;
let catenaX: ValidateFunction | undefined;

/** Checks a credential (unsigned, as JSON) against the vendored UNTP DPP 0.6.0 schema. */
export function checkUntpCredential(credential: unknown): SchemaCheck {
  if (!untp) {
    // strict: false: the schema carries annotations ajv does not know (`example`, `x-external-enumeration`).
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    untp = ajv.compile(vendoredJson("untp-dpp-0.6.0-schema.json") as object);
  }
  return check(untp, credential);
}

/** Checks a document against the vendored Catena-X generic DPP 7.0.0 schema. */
export function checkCatenaXPassport(document: unknown): SchemaCheck {
  if (!catenaX) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    catenaX = ajv.compile(fromDraft04(vendoredJson("catenax-dpp-7.0.0-schema.json")) as object);
  }
  return check(catenaX, document);
}

function check(validate: ValidateFunction, value: unknown): SchemaCheck {
  const valid = validate(value);
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}
