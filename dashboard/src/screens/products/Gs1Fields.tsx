// The product's GS1 identifiers in the create and edit forms: GTIN, lot and serial, each with the server's problem
// shown inline (a wrong check digit names the right one), and the Digital Link they make.
import { TextField } from "../../ui/fields";

type Gs1Values = { gtin: string; lot: string; serial: string };

export function Gs1Fields({
  values,
  set,
  problem,
  digitalLink,
}: {
  values: Gs1Values;
  set: (key: keyof Gs1Values) => (event: { target: { value: string } }) => void;
  problem: (field: string) => string | undefined;
  digitalLink?: string | null;
}) {
  return (
    <fieldset>
      <legend>GS1 identifiers (optional)</legend>
      <div className="form-grid">
        <TextField
          label="GTIN"
          inputMode="numeric"
          maxLength={14}
          hint="8, 12, 13 or 14 digits with the check digit; the certificate QR code then carries its GS1 Digital Link"
          value={values.gtin}
          onChange={set("gtin")}
          error={problem("gtin")}
        />
        <TextField label="Lot" maxLength={20} hint="Batch or lot (GS1 AI 10), with a GTIN" value={values.lot} onChange={set("lot")} error={problem("lot")} />
        <TextField label="Serial" maxLength={20} hint="Serial number (GS1 AI 21), with a GTIN; unique per GTIN" value={values.serial} onChange={set("serial")} error={problem("serial")} />
      </div>
      {digitalLink && (
        <p className="muted break">
          Digital Link: <a href={digitalLink}>{digitalLink}</a>
        </p>
      )}
    </fieldset>
  );
}
