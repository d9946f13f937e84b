// A new product: the fields of the v1 create-product call, in a form. The passport is issued separately (the
// product's screen has the Issue certificate button), so creating uses no certificate quota.
import { useState } from "react";
import { api, dataOf } from "../../api/client";
import type { CreateProductBody } from "../../api/types";
import { TextAreaField, TextField } from "../../ui/fields";
import { focusFirstInvalid, useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { Section } from "../../ui/Page";
import { CertificationFields, parseCertifications, type CertificationDraft } from "./CertificationFields";
import { parseFibres } from "./fibres";
import { Gs1Fields } from "./Gs1Fields";
import { EMPTY_TEXTILE, problemIn, TextileFields, textileOf } from "./TextileFields";
import { TranslationFields } from "./TranslationFields";

const EMPTY = { sku: "", name: "", category: "", price: "", currency: "BDT", fabric_type: "", description: "", care_instructions: "", fibres: "", country: "", factory_id: "", gtin: "", lot: "", serial: "", bn_name: "", bn_description: "" };

export function CreateProductForm({ onCreated }: { onCreated: (uid: string) => void }) {
  const [form, setForm] = useState(EMPTY);
  const [fibreProblem, setFibreProblem] = useState<string>();
  const [bengaliProblem, setBengaliProblem] = useState<string>();
  const [certifications, setCertifications] = useState<CertificationDraft[]>([]);
  const [certificationProblems, setCertificationProblems] = useState(new Map<string, string>());
  const [textile, setTextile] = useState(EMPTY_TEXTILE);
  const [textileProblems, setTextileProblems] = useState(new Map<string, string>());
  const create = useAction();
  const set = (key: keyof typeof EMPTY) => (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value });
  const problem = (field: string) =>
    (field === "translations.bn.name" ? bengaliProblem : undefined) ?? certificationProblems.get(field) ?? problemIn(textileProblems, field) ?? create.error?.problemWith(field);
  const exactProblem = (field: string) => textileProblems.get(field) ?? create.error?.details.find((detail) => detail.field === field)?.problem;

  const submit = (formElement: HTMLFormElement) => {
    const { fibres, problem: parseProblem } = parseFibres(form.fibres);
    setFibreProblem(parseProblem);
    // A Bengali description shows under a Bengali name: one without the other would be dropped.
    const bengaliNameMissing = !form.bn_name.trim() && form.bn_description.trim() ? "Give the name in Bengali too, or clear the description." : undefined;
    setBengaliProblem(bengaliNameMissing);
    const declared = parseCertifications(certifications);
    setCertificationProblems(declared.problems);
    const section = textileOf(textile);
    setTextileProblems(section.problems);
    if (parseProblem || bengaliNameMissing || declared.problems.size > 0 || section.problems.size > 0) return focusFirstInvalid(formElement);
    const body: CreateProductBody = {
      sku: form.sku.trim(),
      name: form.name.trim(),
      category: form.category.trim(),
      price: Number(form.price),
      ...(form.currency.trim() ? { currency: form.currency.trim().toUpperCase() } : {}),
      ...(form.fabric_type.trim() ? { fabric_type: form.fabric_type.trim() } : {}),
      ...(form.description.trim() ? { description: form.description.trim() } : {}),
      ...(form.care_instructions.trim() ? { care_instructions: form.care_instructions.trim() } : {}),
      ...(form.country.trim() ? { country_of_manufacture: form.country.trim().toUpperCase() } : {}),
      ...(form.factory_id.trim() ? { factory_id: Number(form.factory_id) } : {}),
      ...(fibres.length ? { fiber_composition: fibres as CreateProductBody["fiber_composition"] } : {}),
      ...(declared.certifications.length ? { certifications: declared.certifications } : {}),
      ...(form.gtin.trim() ? { gtin: form.gtin.trim() } : {}),
      ...(form.lot.trim() ? { lot: form.lot.trim() } : {}),
      ...(form.serial.trim() ? { serial: form.serial.trim() } : {}),
      ...(section.textile ? { textile: section.textile } : {}),
      ...(form.bn_name.trim() ? { translations: { bn: { name: form.bn_name.trim(), description: form.bn_description.trim() } } } : {}),
    };
    void create.run(async () => {
      const product = await dataOf(api.POST("/api/dashboard/products", { body }));
      setForm(EMPTY);
      setCertifications([]);
      setTextile(EMPTY_TEXTILE);
      onCreated(product.uid);
      return `Product ${product.uid} created.`;
    });
  };

  return (
    <Section title="New product" id="new-product">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit(event.currentTarget);
        }}
      >
        <div className="form-grid">
          <TextField label="SKU" required maxLength={64} hint="Letters, digits, . _ / -" value={form.sku} onChange={set("sku")} error={problem("sku")} />
          <TextField label="Name" required maxLength={200} value={form.name} onChange={set("name")} error={problem("name")} />
          <TextField label="Category" required maxLength={40} hint="e.g. shirt, jeans, saree" value={form.category} onChange={set("category")} error={problem("category")} />
          <TextField label="Fabric type" maxLength={60} hint="e.g. organic cotton" value={form.fabric_type} onChange={set("fabric_type")} error={problem("fabric_type")} />
          <TextField label="Price" required type="number" min={0} step="0.01" inputMode="decimal" value={form.price} onChange={set("price")} error={problem("price")} />
          <TextField label="Currency" maxLength={3} hint="ISO code; BDT when empty" value={form.currency} onChange={set("currency")} error={problem("currency")} />
          <TextField
            label="Fibre composition"
            maxLength={300}
            hint="fibre:percent separated by ;, e.g. cotton:95;elastane:5"
            value={form.fibres}
            onChange={set("fibres")}
            error={fibreProblem ?? problem("fiber_composition")}
          />
          <TextField label="Country of manufacture" maxLength={2} hint="Two letters, e.g. BD" value={form.country} onChange={set("country")} error={problem("country_of_manufacture")} />
          <TextField label="Factory ID" type="number" min={1} hint="From the factory registry, if you know it" value={form.factory_id} onChange={set("factory_id")} error={problem("factory_id")} />
        </div>
        <Gs1Fields values={form} set={set} problem={problem} />
        <CertificationFields drafts={certifications} onChange={setCertifications} problem={problem} />
        <TextAreaField label="Description" maxLength={2000} value={form.description} onChange={set("description")} error={problem("description")} />
        <TextAreaField label="Care instructions" maxLength={500} rows={2} value={form.care_instructions} onChange={set("care_instructions")} error={problem("care_instructions")} />
        <TextileFields draft={textile} onChange={setTextile} problem={problem} exact={exactProblem} />
        <TranslationFields values={form} set={set} problem={problem} />
        <ActionStatus action={create} busyText="Creating the product…" />
        <div className="actions">
          <button type="submit" aria-disabled={create.busy || undefined}>
            Create product
          </button>
        </div>
      </form>
    </Section>
  );
}
