// The product's certifications in the create and edit forms: each one's scheme, issuer, number, expiry and evidence
// link, as POST /api/v1/products takes them; the scan page lists them (none declared: "No certifications declared").
import { CERTIFICATION_CODES } from "../../../../api/src/generated/contract-constants";
import type { CreateProductBody } from "../../api/types";
import { SelectField, TextField } from "../../ui/fields";

export type Certification = NonNullable<CreateProductBody["certifications"]>[number];
type Code = Certification["code"];

// The API's own list (generated from the registry contract), so the form offers exactly what the API accepts.
const CODES = CERTIFICATION_CODES satisfies readonly Code[];
type Missing = Exclude<Code, (typeof CODES)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

/** A certification as typed: every field a string, the evidence link empty when there is none. */
export type CertificationDraft = { code: string; issuer: string; number: string; valid_until: string; evidence_url: string };

export const MAX_CERTIFICATIONS = 10;

const EMPTY_DRAFT: CertificationDraft = { code: "GOTS", issuer: "", number: "", valid_until: "", evidence_url: "" };

export function draftsOf(certifications: ReadonlyArray<{ code: string; issuer: string; number: string; valid_until: string; evidence_url?: string }>): CertificationDraft[] {
  return certifications.map((c) => ({ code: c.code, issuer: c.issuer, number: c.number, valid_until: c.valid_until, evidence_url: c.evidence_url ?? "" }));
}

/** The drafts as the API takes them; a draft missing a required field gives a problem per field, by index. */
export function parseCertifications(drafts: CertificationDraft[]): { certifications: Certification[]; problems: Map<string, string> } {
  const problems = new Map<string, string>();
  const certifications = drafts.map((draft, i) => {
    const trimmed = { code: draft.code, issuer: draft.issuer.trim(), number: draft.number.trim(), valid_until: draft.valid_until.trim(), evidence_url: draft.evidence_url.trim() };
    if (!trimmed.issuer) problems.set(`certifications.${i}.issuer`, "Name the body that issued it, e.g. Control Union.");
    if (!trimmed.number) problems.set(`certifications.${i}.number`, "Give the certificate's number.");
    if (!trimmed.valid_until) problems.set(`certifications.${i}.valid_until`, "Give the date it is valid until.");
    if (trimmed.evidence_url && !/^https?:\/\/\S+$/.test(trimmed.evidence_url)) problems.set(`certifications.${i}.evidence_url`, "An http or https link, or leave it empty.");
    const { evidence_url, ...required } = trimmed;
    return { ...required, code: trimmed.code as Code, ...(evidence_url ? { evidence_url } : {}) };
  });
  return { certifications, problems };
}

/** The same list, compared as the API would store it (to send an edit only when something changed). */
export function sameCertifications(a: CertificationDraft[], b: CertificationDraft[]): boolean {
  return JSON.stringify(parseCertifications(a).certifications) === JSON.stringify(parseCertifications(b).certifications);
}

export function CertificationFields({
  drafts,
  onChange,
  problem,
}: {
  drafts: CertificationDraft[];
  onChange: (drafts: CertificationDraft[]) => void;
  problem: (field: string) => string | undefined;
}) {
  const update = (index: number, key: keyof CertificationDraft) => (event: { target: { value: string } }) =>
    onChange(drafts.map((draft, i) => (i === index ? { ...draft, [key]: event.target.value } : draft)));
  return (
    <fieldset>
      <legend>Certifications (optional)</legend>
      <p className="hint">Shown on the scan page and in the passport, with their expiry and a link to the certificate when you give one.</p>
      {drafts.length === 0 && <p className="muted">None declared: the scan page says “No certifications declared”.</p>}
      {drafts.map((draft, i) => {
        const field = (key: string) => problem(`certifications.${i}.${key}`);
        return (
          <fieldset key={i}>
            <legend>Certification {i + 1}</legend>
            <div className="form-grid">
              <SelectField label="Scheme" value={draft.code} onChange={update(i, "code")} error={field("code")}>
                {CODES.map((code) => (
                  <option key={code} value={code}>
                    {code}
                  </option>
                ))}
              </SelectField>
              <TextField label="Issuer" required maxLength={120} hint="The certification body, e.g. Control Union" value={draft.issuer} onChange={update(i, "issuer")} error={field("issuer")} />
              <TextField label="Certificate number" required maxLength={80} value={draft.number} onChange={update(i, "number")} error={field("number")} />
              <TextField label="Valid until" required type="date" value={draft.valid_until} onChange={update(i, "valid_until")} error={field("valid_until")} />
              <TextField
                label="Evidence URL"
                type="url"
                inputMode="url"
                maxLength={500}
                placeholder="https://"
                hint="A link to the certificate or its entry in the scheme's database"
                value={draft.evidence_url}
                onChange={update(i, "evidence_url")}
                error={field("evidence_url")}
              />
            </div>
            <div className="row-actions">
              <button type="button" className="secondary" onClick={() => onChange(drafts.filter((_, j) => j !== i))}>
                Remove certification {i + 1}
              </button>
            </div>
          </fieldset>
        );
      })}
      {drafts.length < MAX_CERTIFICATIONS && (
        <div className="actions">
          <button type="button" className="secondary" onClick={() => onChange([...drafts, { ...EMPTY_DRAFT }])}>
            Add a certification
          </button>
        </div>
      )}
    </fieldset>
  );
}
