// Edit a product. Once its passport is minted, saving anchors the new data hash on chain (a new version), so the
// button says so; price and currency are not anchored, so changing only them sends no transaction.
import { useState } from "react";
import { api, dataOf } from "../../api/client";
import type { ProductDetail, ProductPatch } from "../../api/types";
import { TextAreaField, TextField } from "../../ui/fields";
import { focusFirstInvalid, useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { Section } from "../../ui/Page";
import { CertificationFields, draftsOf, parseCertifications, sameCertifications, type CertificationDraft } from "../products/CertificationFields";
import { fibresOf, formatFibres, parseFibres } from "../products/fibres";
import { Gs1Fields } from "../products/Gs1Fields";
import { problemIn, sameTextile, TextileFields, textileDraftOf, textileOf } from "../products/TextileFields";
import { TranslationFields } from "../products/TranslationFields";

function formOf(product: ProductDetail) {
  return {
    name: product.name,
    price: String(product.price),
    currency: product.currency,
    description: product.description ?? "",
    fabric_type: product.fabric_type ?? "",
    care_instructions: product.care_instructions ?? "",
    fibres: formatFibres(fibresOf(product.fiber_composition)),
    gtin: product.gtin ?? "",
    lot: product.lot ?? "",
    serial: product.serial ?? "",
    bn_name: product.translations.bn?.name ?? "",
    bn_description: product.translations.bn?.description ?? "",
  };
}

export function EditProductForm({ product, onSaved }: { product: ProductDetail; onSaved: (product: ProductDetail) => void }) {
  const [form, setForm] = useState(() => formOf(product));
  const [fibreProblem, setFibreProblem] = useState<string>();
  const [certifications, setCertifications] = useState<CertificationDraft[]>(() => draftsOf(product.certifications));
  const [certificationProblems, setCertificationProblems] = useState(new Map<string, string>());
  const [textile, setTextile] = useState(() => textileDraftOf(product.textile));
  const [textileProblems, setTextileProblems] = useState(new Map<string, string>());
  const save = useAction();
  const minted = product.passport_status !== "unissued";
  const original = formOf(product);
  const set = (key: keyof ReturnType<typeof formOf>) => (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value });
  const problem = (field: string) => certificationProblems.get(field) ?? problemIn(textileProblems, field) ?? save.error?.problemWith(field);
  const exactProblem = (field: string) => textileProblems.get(field) ?? save.error?.details.find((detail) => detail.field === field)?.problem;

  return (
    <Section title="Edit product" id="edit-product">
      {minted && <p className="muted">Saving anchors the new content on chain: a new version with its own transaction.</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const { fibres, problem: parseProblem } = parseFibres(form.fibres);
          setFibreProblem(parseProblem);
          const declared = parseCertifications(certifications);
          setCertificationProblems(declared.problems);
          const section = textileOf(textile);
          setTextileProblems(section.problems);
          if (parseProblem || declared.problems.size > 0 || section.problems.size > 0) return focusFirstInvalid(event.currentTarget);
          // Only what changed is sent, so an untouched field keeps its exact stored value.
          const patch: ProductPatch = {};
          if (form.name.trim() !== original.name) patch.name = form.name.trim();
          if (form.price.trim() !== original.price) patch.price = Number(form.price);
          if (form.currency.trim().toUpperCase() !== original.currency) patch.currency = form.currency.trim().toUpperCase();
          if (form.description.trim() !== original.description) patch.description = form.description.trim();
          if (form.fabric_type.trim() !== original.fabric_type) patch.fabric_type = form.fabric_type.trim();
          if (form.care_instructions.trim() !== original.care_instructions) patch.care_instructions = form.care_instructions.trim();
          if (formatFibres(fibres) !== original.fibres) patch.fiber_composition = fibres;
          // The whole list is sent: an emptied one removes every certification.
          if (!sameCertifications(certifications, draftsOf(product.certifications))) patch.certifications = declared.certifications;
          // The textile section is sent whole; emptied, it is removed (null) and the passport goes back to version 3.
          if (!sameTextile(textile, textileDraftOf(product.textile))) patch.textile = section.textile ?? null;
          // An emptied field is sent empty: it removes the identifier (and a removed GTIN its lot and serial).
          for (const key of ["gtin", "lot", "serial"] as const) if (form[key].trim() !== original[key]) patch[key] = form[key].trim();
          // The Bengali pair: an emptied name removes the translation.
          if (form.bn_name.trim() !== original.bn_name || form.bn_description.trim() !== original.bn_description) {
            patch.translations = { bn: form.bn_name.trim() ? { name: form.bn_name.trim(), description: form.bn_description.trim() } : null };
          }
          if (Object.keys(patch).length === 0) {
            void save.run(async () => "Nothing changed.");
            return;
          }
          void save.run(async () => {
            const saved = await dataOf(api.PATCH("/api/dashboard/products/{uid}", { params: { path: { uid: product.uid } }, body: patch }));
            onSaved(saved);
            setForm(formOf(saved));
            setCertifications(draftsOf(saved.certifications));
            setTextile(textileDraftOf(saved.textile));
            // Price, currency and translations are not part of the anchored content.
            const anchored = Object.keys(patch).some((key) => !["price", "currency", "translations"].includes(key));
            return minted && anchored ? "Saved. The new data hash is being anchored on chain." : "Saved.";
          });
        }}
      >
        <div className="form-grid">
          <TextField label="Name" required maxLength={200} value={form.name} onChange={set("name")} error={problem("name")} />
          <TextField label="Price" required type="number" min={0} step="0.01" inputMode="decimal" hint="Changing only the price or currency sends nothing to the chain" value={form.price} onChange={set("price")} error={problem("price")} />
          <TextField label="Currency" required maxLength={3} hint="ISO code, e.g. BDT" value={form.currency} onChange={set("currency")} error={problem("currency")} />
          <TextField label="Fabric type" maxLength={60} value={form.fabric_type} onChange={set("fabric_type")} error={problem("fabric_type")} />
          <TextField
            label="Fibre composition"
            maxLength={300}
            hint="fibre:percent separated by ;, e.g. cotton:95;elastane:5"
            value={form.fibres}
            onChange={set("fibres")}
            error={fibreProblem ?? problem("fiber_composition")}
          />
        </div>
        <Gs1Fields values={form} set={set} problem={problem} digitalLink={product.digital_link} />
        <CertificationFields drafts={certifications} onChange={setCertifications} problem={problem} />
        <TextAreaField label="Description" maxLength={2000} value={form.description} onChange={set("description")} error={problem("description")} />
        <TextAreaField label="Care instructions" maxLength={500} rows={2} value={form.care_instructions} onChange={set("care_instructions")} error={problem("care_instructions")} />
        <TextileFields draft={textile} onChange={setTextile} problem={problem} exact={exactProblem} />
        <TranslationFields values={form} set={set} problem={problem} />
        <ActionStatus action={save} busyText={minted ? "Saving and anchoring…" : "Saving…"} />
        <button type="submit" aria-disabled={save.busy || undefined}>
          {minted ? "Save and re-anchor" : "Save changes"}
        </button>
      </form>
    </Section>
  );
}
