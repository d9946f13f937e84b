// The product's Bengali name and description in the create and edit forms: shown on the shopper pages and the
// certificate PDF in Bengali (docs/languages.md); presentation only, so saving them anchors nothing.
import { useEffect } from "react";
import { TextAreaField, TextField } from "../../ui/fields";

type TranslationValues = { bn_name: string; bn_description: string };

export function TranslationFields({
  values,
  set,
  problem,
}: {
  values: TranslationValues;
  set: (key: keyof TranslationValues) => (event: { target: { value: string } }) => void;
  problem: (field: string) => string | undefined;
}) {
  // Both faces of the Bengali web font, loaded as the fields appear: a textarea does not redraw text typed before its
  // face arrived, which would stay as empty boxes.
  useEffect(() => {
    for (const weight of ["400", "700"]) void document.fonts?.load(`${weight} 16px "Noto Sans Bengali"`, "অ").catch(() => undefined);
  }, []);
  return (
    <fieldset lang="bn">
      <legend lang="en">Bengali (বাংলা) name and description (optional)</legend>
      <div className="form-grid">
        <TextField
          label="Name in Bengali"
          maxLength={200}
          hint="Shown to shoppers who read the pages in Bengali; empty: the product's own name"
          value={values.bn_name}
          onChange={set("bn_name")}
          error={problem("translations.bn.name") ?? problem("translations")}
        />
      </div>
      <TextAreaField
        label="Description in Bengali"
        maxLength={2000}
        value={values.bn_description}
        onChange={set("bn_description")}
        error={problem("translations.bn.description")}
      />
    </fieldset>
  );
}
