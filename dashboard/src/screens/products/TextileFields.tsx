// The textile passport (content version 4, docs/textile.md) in the create and edit forms, collapsed until opened:
// who made each stage and where, materials with recycled content, substances of concern, durability, care symbols,
// repair, end of life, images, production date, commodity code and the carbon figure with its method. Typed as drafts
// of strings; textileOf turns a draft into the `textile` object the API takes, and the API's problems (by field path,
// e.g. textile.stages.1.facility.country) show under the field they name.
import { useEffect, useState, type ReactNode } from "react";
import { EU_FIBRE_NAMES } from "../../../../api/src/passports/fibres";
import { CARE_SYMBOL_WORDS, DURABILITY_PROPERTY_WORDS } from "../../../../api/src/passports/textile-words";
import type { CreateProductBody } from "../../api/types";
import { SelectField, TextAreaField, TextField } from "../../ui/fields";

export type Textile = NonNullable<CreateProductBody["textile"]>;
type Stage = NonNullable<Textile["stages"]>[number]["stage"];
type Scheme = NonNullable<NonNullable<Textile["stages"]>[number]["facility"]["id"]>["scheme"];
type CareSymbol = NonNullable<Textile["care"]>["symbols"][number];
type Property = NonNullable<Textile["durability"]>[number]["property"];

const STAGE_LABELS: Record<Stage, string> = {
  recycling: "Recycling (fibre from waste)",
  fibre: "Fibre production",
  spinning: "Spinning",
  weaving_knitting: "Weaving or knitting",
  dyeing_printing_finishing: "Dyeing, printing, finishing",
  making_up: "Making-up (cutting and sewing)",
};

const SCHEME_LABELS: Record<Scheme, string> = { gln: "GLN (GS1)", osh: "Open Supply Hub id", registry: "Our factory registry id" };

// ISO 3758:2023 symbols and durability properties with the words the shopper pages use for them (the API's lists).
const CARE_LABELS: Record<CareSymbol, string> = CARE_SYMBOL_WORDS;

const PROPERTY_LABELS: Record<Property, string> = DURABILITY_PROPERTY_WORDS;

const MAX_CARE_SYMBOLS = 10;

type StageDraft = { stage: string; name: string; country: string; scheme: string; id: string; started: string; completed: string };
type MaterialDraft = { fibre: string; mass_percent: string; origin_country: string; recycled_percent: string; recycled_origin: string; cert_code: string; cert_number: string };
type SubstanceDraft = { name: string; cas: string; ec: string; concentration_percent: string; location: string; safe_use: string };
type DurabilityDraft = { property: string; standard: string; result: string; class: string };

/** The section as typed: every value a string (lists one per line), empty when not given. */
export type TextileDraft = {
  production_date: string;
  hs6: string;
  cn8: string;
  stages: StageDraft[];
  materials: MaterialDraft[];
  substances: SubstanceDraft[];
  durability: DurabilityDraft[];
  care_symbols: string[];
  care_text: string;
  repair_instructions: string;
  spare_parts: string;
  repair_service_url: string;
  recyclability: string;
  take_back: string;
  take_back_url: string;
  images: string;
  carbon_kg: string;
  carbon_method: string;
  carbon_study_reference: string;
};

const NEW_STAGE: StageDraft = { stage: "making_up", name: "", country: "", scheme: "", id: "", started: "", completed: "" };
const NEW_MATERIAL: MaterialDraft = { fibre: "cotton", mass_percent: "", origin_country: "", recycled_percent: "", recycled_origin: "", cert_code: "", cert_number: "" };
const NEW_SUBSTANCE: SubstanceDraft = { name: "", cas: "", ec: "", concentration_percent: "", location: "", safe_use: "" };
const NEW_DURABILITY: DurabilityDraft = { property: "pilling", standard: "", result: "", class: "" };

/** The draft of a stored section (none: an empty draft). */
export function textileDraftOf(textile: Textile | null | undefined): TextileDraft {
  const t = textile ?? {};
  const text = (value: string | number | undefined) => (value === undefined ? "" : String(value));
  return {
    production_date: text(t.production_date),
    hs6: text(t.commodity_code?.hs6),
    cn8: text(t.commodity_code?.cn8),
    stages: (t.stages ?? []).map((s) => ({
      stage: s.stage,
      name: s.facility.name,
      country: s.facility.country,
      scheme: s.facility.id?.scheme ?? "",
      id: s.facility.id?.value ?? "",
      started: text(s.started),
      completed: text(s.completed),
    })),
    materials: (t.materials ?? []).map((m) => ({
      fibre: m.fibre,
      mass_percent: text(m.mass_percent),
      origin_country: text(m.origin_country),
      recycled_percent: text(m.recycled_percent),
      recycled_origin: text(m.recycled_origin),
      cert_code: text(m.certification?.code),
      cert_number: text(m.certification?.number),
    })),
    substances: (t.substances_of_concern ?? []).map((s) => ({
      name: s.name,
      cas: text(s.cas),
      ec: text(s.ec),
      concentration_percent: text(s.concentration_percent),
      location: s.location,
      safe_use: text(s.safe_use),
    })),
    durability: (t.durability ?? []).map((d) => ({ property: d.property, standard: d.standard, result: d.result, class: text(d.class) })),
    care_symbols: [...(t.care?.symbols ?? [])],
    care_text: text(t.care?.text),
    repair_instructions: text(t.repair?.instructions),
    spare_parts: (t.repair?.spare_parts ?? []).join("\n"),
    repair_service_url: text(t.repair?.service_url),
    recyclability: text(t.end_of_life?.recyclability),
    take_back: text(t.end_of_life?.take_back),
    take_back_url: text(t.end_of_life?.take_back_url),
    images: (t.images ?? []).join("\n"),
    carbon_kg: text(t.carbon?.kg_co2e),
    carbon_method: text(t.carbon?.method),
    carbon_study_reference: text(t.carbon?.study_reference),
  };
}

export const EMPTY_TEXTILE = textileDraftOf(null);

/**
 * The `textile` object a draft stands for (undefined when nothing is filled in), and the problems of values that are
 * not numbers where numbers go, by the field path the API would use. Everything else is left to the API's checks.
 */
export function textileOf(draft: TextileDraft): { textile?: Textile; problems: Map<string, string> } {
  const problems = new Map<string, string>();
  const number = (path: string, value: string, what: string): number | undefined => {
    const trimmed = value.trim().replace(",", ".").replace(/%$/, "").trim();
    if (!trimmed) return undefined;
    const parsed = Number(trimmed);
    if (!Number.isFinite(parsed)) problems.set(path, `Write ${what} as a number, e.g. 60.`);
    return Number.isFinite(parsed) ? parsed : undefined;
  };
  const some = <T extends object>(value: T): T | undefined => (Object.keys(value).length > 0 ? value : undefined);
  const given = (value: string) => value.trim() || undefined;
  const lines = (value: string) => value.split("\n").map((line) => line.trim()).filter(Boolean);

  const code = some({ ...(given(draft.hs6) ? { hs6: draft.hs6.trim() } : {}), ...(given(draft.cn8) ? { cn8: draft.cn8.trim() } : {}) });
  const stages = draft.stages.map((s) => ({
    stage: s.stage as Stage,
    facility: {
      name: s.name.trim(),
      country: s.country.trim().toUpperCase(),
      ...(s.scheme && s.id.trim() ? { id: { scheme: s.scheme as Scheme, value: s.id.trim().toUpperCase() } } : {}),
    },
    ...(given(s.started) ? { started: s.started } : {}),
    ...(given(s.completed) ? { completed: s.completed } : {}),
  }));
  const materials = draft.materials.map((m, i) => {
    const recycled = number(`textile.materials.${i}.recycled_percent`, m.recycled_percent, "the recycled share");
    return {
      fibre: m.fibre as NonNullable<Textile["materials"]>[number]["fibre"],
      mass_percent: number(`textile.materials.${i}.mass_percent`, m.mass_percent, "the share of the mass") ?? 0,
      ...(given(m.origin_country) ? { origin_country: m.origin_country.trim().toUpperCase() } : {}),
      ...(recycled !== undefined ? { recycled_percent: recycled } : {}),
      ...(m.recycled_origin ? { recycled_origin: m.recycled_origin as "pre_consumer" | "post_consumer" } : {}),
      ...(given(m.cert_code) || given(m.cert_number) ? { certification: { code: m.cert_code.trim(), number: m.cert_number.trim() } } : {}),
    };
  });
  const substances = draft.substances.map((s, i) => ({
    name: s.name.trim(),
    ...(given(s.cas) ? { cas: s.cas.trim() } : {}),
    ...(given(s.ec) ? { ec: s.ec.trim() } : {}),
    concentration_percent: number(`textile.substances_of_concern.${i}.concentration_percent`, s.concentration_percent, "the concentration") ?? 0,
    location: s.location.trim(),
    ...(given(s.safe_use) ? { safe_use: s.safe_use.trim() } : {}),
  }));
  const durability = draft.durability.map((d) => ({
    property: d.property as Property,
    standard: d.standard.trim(),
    result: d.result.trim(),
    ...(given(d.class) ? { class: d.class.trim() } : {}),
  }));
  const repair = some({
    ...(given(draft.repair_instructions) ? { instructions: draft.repair_instructions.trim() } : {}),
    ...(lines(draft.spare_parts).length ? { spare_parts: lines(draft.spare_parts) } : {}),
    ...(given(draft.repair_service_url) ? { service_url: draft.repair_service_url.trim() } : {}),
  });
  const endOfLife = some({
    ...(given(draft.recyclability) ? { recyclability: draft.recyclability.trim() } : {}),
    ...(given(draft.take_back) ? { take_back: draft.take_back.trim() } : {}),
    ...(given(draft.take_back_url) ? { take_back_url: draft.take_back_url.trim() } : {}),
  });
  // The API takes https links only; said here in words rather than as its pattern.
  const https = (path: string, values: string[]) => {
    if (values.some((value) => !/^https:\/\/\S+$/.test(value))) problems.set(path, "An https link (https://…), or leave it empty.");
  };
  https("textile.repair.service_url", [draft.repair_service_url.trim()].filter(Boolean));
  https("textile.end_of_life.take_back_url", [draft.take_back_url.trim()].filter(Boolean));
  https("textile.images", lines(draft.images));
  const kg = number("textile.carbon.kg_co2e", draft.carbon_kg, "the kg CO2e");
  if (kg !== undefined && !draft.carbon_method) problems.set("textile.carbon.method", "Say how the figure was made: your PEF study or an estimate.");
  if (kg === undefined && draft.carbon_method && !problems.has("textile.carbon.kg_co2e")) problems.set("textile.carbon.kg_co2e", "Give the kg CO2e per item, or clear the method.");
  const carbon =
    kg !== undefined && draft.carbon_method
      ? { method: draft.carbon_method as "pef_study" | "estimate", kg_co2e: kg, ...(given(draft.carbon_study_reference) ? { study_reference: draft.carbon_study_reference.trim() } : {}) }
      : undefined;

  const textile = some({
    ...(given(draft.production_date) ? { production_date: draft.production_date } : {}),
    ...(code ? { commodity_code: code } : {}),
    ...(stages.length ? { stages } : {}),
    ...(materials.length ? { materials } : {}),
    ...(substances.length ? { substances_of_concern: substances } : {}),
    ...(durability.length ? { durability } : {}),
    ...(draft.care_symbols.length || given(draft.care_text)
      ? { care: { symbols: draft.care_symbols as CareSymbol[], ...(given(draft.care_text) ? { text: draft.care_text.trim() } : {}) } }
      : {}),
    ...(repair ? { repair } : {}),
    ...(endOfLife ? { end_of_life: endOfLife } : {}),
    ...(lines(draft.images).length ? { images: lines(draft.images) } : {}),
    ...(carbon ? { carbon } : {}),
  });
  return { ...(textile ? { textile } : {}), problems };
}

/** A problem of the form's own from `problems`, at `field` or under it (as ApiError.problemWith finds the API's). */
export function problemIn(problems: Map<string, string>, field: string): string | undefined {
  for (const [path, problem] of problems) if (path === field || path.startsWith(`${field}.`)) return problem;
  return undefined;
}

/** The same section, compared as the API would store it (an edit sends it only when something changed). */
export function sameTextile(a: TextileDraft, b: TextileDraft): boolean {
  return JSON.stringify(textileOf(a).textile ?? null) === JSON.stringify(textileOf(b).textile ?? null);
}

type Rows<T> = { items: T[]; onChange: (items: T[]) => void };

/** A list of rows with an Add button and a Remove button per row. */
function RowList<T>({ legend, hint, noun, max, empty, rows, problem, render }: {
  legend: string;
  hint?: string;
  noun: string;
  max: number;
  empty: T;
  rows: Rows<T>;
  problem?: string;
  render: (item: T, set: (key: keyof T) => (event: { target: { value: string } }) => void, i: number) => ReactNode;
}) {
  const { items, onChange } = rows;
  return (
    <fieldset>
      <legend>{legend}</legend>
      {hint && <p className="hint">{hint}</p>}
      {problem && <p className="field-error">{problem}</p>}
      {items.map((item, i) => {
        const set = (key: keyof T) => (event: { target: { value: string } }) => onChange(items.map((it, j) => (j === i ? { ...it, [key]: event.target.value } : it)));
        return (
          <fieldset key={i}>
            <legend>
              {noun} {i + 1}
            </legend>
            {render(item, set, i)}
            <div className="row-actions">
              <button type="button" className="secondary" onClick={() => onChange(items.filter((_, j) => j !== i))}>
                Remove {noun.toLowerCase()} {i + 1}
              </button>
            </div>
          </fieldset>
        );
      })}
      {items.length < max && (
        <div className="actions">
          <button type="button" className="secondary" onClick={() => onChange([...items, { ...empty }])}>
            Add {noun.toLowerCase()}
          </button>
        </div>
      )}
    </fieldset>
  );
}

/**
 * The section's fields. `problem` finds a field's problem by its API path (and those of the fields under it);
 * `exact` only the path's own, for a list as a whole (e.g. the mass percentages' sum). It opens itself when one shows.
 */
export function TextileFields({
  draft,
  onChange,
  problem,
  exact,
}: {
  draft: TextileDraft;
  onChange: (draft: TextileDraft) => void;
  problem: (field: string) => string | undefined;
  exact: (field: string) => string | undefined;
}) {
  const [open, setOpen] = useState(false);
  const attention = Boolean(problem("textile"));
  useEffect(() => {
    if (attention) setOpen(true);
  }, [attention]);
  const set = (key: keyof TextileDraft) => (event: { target: { value: string } }) => onChange({ ...draft, [key]: event.target.value });
  const list = <K extends "stages" | "materials" | "substances" | "durability">(key: K): Rows<TextileDraft[K][number]> => ({
    items: draft[key] as Array<TextileDraft[K][number]>,
    onChange: (items) => onChange({ ...draft, [key]: items }),
  });
  const toggleCare = (symbol: string, on: boolean) =>
    onChange({ ...draft, care_symbols: on ? [...draft.care_symbols, symbol] : draft.care_symbols.filter((s) => s !== symbol) });
  const filled = textileOf(draft).textile !== undefined;

  return (
    <details className="field textile" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Textile passport (optional){filled ? ": filled in" : ""}
        {attention ? " — has problems" : ""}
      </summary>
      <p className="hint">
        What the EU textiles act is expected to ask for: who made each stage and where, recycled content, substances of concern, durability, care, repair and end of life. The
        passport then carries content version 4.
      </p>
      <div className="form-grid">
        <TextField label="Production date" type="date" value={draft.production_date} onChange={set("production_date")} error={problem("textile.production_date")} />
        <TextField label="HS code (6 digits)" inputMode="numeric" maxLength={6} hint="e.g. 610910" value={draft.hs6} onChange={set("hs6")} error={problem("textile.commodity_code.hs6")} />
        <TextField label="CN code (8 digits)" inputMode="numeric" maxLength={8} hint="Starts with the HS code, e.g. 61091000" value={draft.cn8} onChange={set("cn8")} error={problem("textile.commodity_code.cn8")} />
      </div>

      <RowList
        legend="Processing stages"
        hint="Each stage and the facility that ran it, from fibre to making-up. An id lets the facility confirm its stage."
        noun="Stage"
        max={20}
        empty={NEW_STAGE}
        rows={list("stages")}
        problem={exact("textile.stages")}
        render={(s, on, i) => {
          const at = (field: string) => problem(`textile.stages.${i}.${field}`);
          return (
            <div className="form-grid">
              <SelectField label="Stage" value={s.stage} onChange={on("stage")} error={at("stage")}>
                {(Object.keys(STAGE_LABELS) as Stage[]).map((stage) => (
                  <option key={stage} value={stage}>
                    {STAGE_LABELS[stage]}
                  </option>
                ))}
              </SelectField>
              <TextField label="Facility name" required maxLength={200} value={s.name} onChange={on("name")} error={at("facility.name")} />
              <TextField label="Country" required maxLength={2} hint="Two letters, e.g. BD" value={s.country} onChange={on("country")} error={at("facility.country")} />
              <SelectField label="Identifier scheme" value={s.scheme} onChange={on("scheme")} error={at("facility.id.scheme")}>
                <option value="">None</option>
                {(Object.keys(SCHEME_LABELS) as Scheme[]).map((scheme) => (
                  <option key={scheme} value={scheme}>
                    {SCHEME_LABELS[scheme]}
                  </option>
                ))}
              </SelectField>
              <TextField label="Identifier" maxLength={20} hint="Letters and digits" value={s.id} onChange={on("id")} error={at("facility.id.value") ?? at("facility.id")} />
              <TextField label="Started" type="date" value={s.started} onChange={on("started")} error={at("started")} />
              <TextField label="Completed" type="date" value={s.completed} onChange={on("completed")} error={at("completed")} />
            </div>
          );
        }}
      />

      <RowList
        legend="Materials"
        hint="Each fibre's share of the mass (the shares sum to 100), where it was grown or made, and how much of it is recycled."
        noun="Material"
        max={10}
        empty={NEW_MATERIAL}
        rows={list("materials")}
        problem={exact("textile.materials")}
        render={(m, on, i) => {
          const at = (field: string) => problem(`textile.materials.${i}.${field}`);
          return (
            <div className="form-grid">
              <SelectField label="Fibre" value={m.fibre} onChange={on("fibre")} error={at("fibre")}>
                {EU_FIBRE_NAMES.map((fibre) => (
                  <option key={fibre} value={fibre}>
                    {fibre}
                  </option>
                ))}
              </SelectField>
              <TextField label="Share of mass (%)" required inputMode="decimal" value={m.mass_percent} onChange={on("mass_percent")} error={at("mass_percent")} />
              <TextField label="Origin country" maxLength={2} hint="Two letters, e.g. IN" value={m.origin_country} onChange={on("origin_country")} error={at("origin_country")} />
              <TextField label="Recycled (%)" inputMode="decimal" hint="Of this fibre" value={m.recycled_percent} onChange={on("recycled_percent")} error={at("recycled_percent")} />
              <SelectField label="Recycled from" value={m.recycled_origin} onChange={on("recycled_origin")} error={at("recycled_origin")}>
                <option value="">Not recycled</option>
                <option value="pre_consumer">Pre-consumer waste</option>
                <option value="post_consumer">Post-consumer waste</option>
              </SelectField>
              <TextField label="Certification" maxLength={20} hint="Scheme, e.g. GRS" value={m.cert_code} onChange={on("cert_code")} error={at("certification.code") ?? at("certification")} />
              <TextField label="Certificate number" maxLength={80} value={m.cert_number} onChange={on("cert_number")} error={at("certification.number")} />
            </div>
          );
        }}
      />

      <RowList
        legend="Substances of concern"
        hint="ESPR Art. 7(5): each substance, its CAS and EC numbers, concentration by weight and where it is in the product."
        noun="Substance"
        max={20}
        empty={NEW_SUBSTANCE}
        rows={list("substances")}
        problem={exact("textile.substances_of_concern")}
        render={(s, on, i) => {
          const at = (field: string) => problem(`textile.substances_of_concern.${i}.${field}`);
          return (
            <div className="form-grid">
              <TextField label="Substance" required maxLength={200} value={s.name} onChange={on("name")} error={at("name")} />
              <TextField label="CAS number" maxLength={12} hint="e.g. 1309-64-4" value={s.cas} onChange={on("cas")} error={at("cas")} />
              <TextField label="EC number" maxLength={9} hint="e.g. 215-175-0" value={s.ec} onChange={on("ec")} error={at("ec")} />
              <TextField label="Concentration (% w/w)" required inputMode="decimal" value={s.concentration_percent} onChange={on("concentration_percent")} error={at("concentration_percent")} />
              <TextField label="Where in the product" required maxLength={200} value={s.location} onChange={on("location")} error={at("location")} />
              <TextField label="Safe use" maxLength={500} value={s.safe_use} onChange={on("safe_use")} error={at("safe_use")} />
            </div>
          );
        }}
      />

      <RowList
        legend="Durability"
        hint="Test results to named standards, e.g. pilling to ISO 12945-2."
        noun="Test"
        max={20}
        empty={NEW_DURABILITY}
        rows={list("durability")}
        problem={exact("textile.durability")}
        render={(d, on, i) => {
          const at = (field: string) => problem(`textile.durability.${i}.${field}`);
          return (
            <div className="form-grid">
              <SelectField label="Property" value={d.property} onChange={on("property")} error={at("property")}>
                {(Object.keys(PROPERTY_LABELS) as Property[]).map((property) => (
                  <option key={property} value={property}>
                    {PROPERTY_LABELS[property]}
                  </option>
                ))}
              </SelectField>
              <TextField label="Test standard" required maxLength={60} hint="e.g. ISO 12945-2" value={d.standard} onChange={on("standard")} error={at("standard")} />
              <TextField label="Result" required maxLength={120} value={d.result} onChange={on("result")} error={at("result")} />
              <TextField label="Class" maxLength={20} value={d.class} onChange={on("class")} error={at("class")} />
            </div>
          );
        }}
      />

      <fieldset>
        <legend>Care (ISO 3758 symbols)</legend>
        <p className="hint">Tick at most {MAX_CARE_SYMBOLS}; the scan page draws each symbol.</p>
        {problem("textile.care.symbols") && <p className="field-error">{problem("textile.care.symbols")}</p>}
        <div className="form-grid">
          {(Object.keys(CARE_LABELS) as CareSymbol[]).map((symbol) => {
            const checked = draft.care_symbols.includes(symbol);
            return (
              <div className="check" key={symbol}>
                <input
                  type="checkbox"
                  id={`care-${symbol}`}
                  checked={checked}
                  disabled={!checked && draft.care_symbols.length >= MAX_CARE_SYMBOLS}
                  onChange={(event) => toggleCare(symbol, event.target.checked)}
                />
                <label htmlFor={`care-${symbol}`}>{CARE_LABELS[symbol]}</label>
              </div>
            );
          })}
        </div>
        <TextAreaField label="Care text" maxLength={500} rows={2} value={draft.care_text} onChange={set("care_text")} error={problem("textile.care.text") ?? exact("textile.care")} />
      </fieldset>

      <fieldset>
        <legend>Repair and end of life</legend>
        <TextAreaField label="Repair instructions" maxLength={1000} rows={2} value={draft.repair_instructions} onChange={set("repair_instructions")} error={problem("textile.repair.instructions")} />
        <div className="form-grid">
          <TextAreaField label="Spare parts" rows={2} hint="One per line" value={draft.spare_parts} onChange={set("spare_parts")} error={problem("textile.repair.spare_parts")} />
          <TextField label="Repair service URL" type="url" maxLength={500} placeholder="https://" value={draft.repair_service_url} onChange={set("repair_service_url")} error={problem("textile.repair.service_url")} />
        </div>
        <div className="form-grid">
          <TextAreaField label="Recyclability" maxLength={500} rows={2} value={draft.recyclability} onChange={set("recyclability")} error={problem("textile.end_of_life.recyclability")} />
          <TextAreaField label="Take-back" maxLength={500} rows={2} hint="Where a customer can return it" value={draft.take_back} onChange={set("take_back")} error={problem("textile.end_of_life.take_back")} />
          <TextField label="Take-back URL" type="url" maxLength={500} placeholder="https://" value={draft.take_back_url} onChange={set("take_back_url")} error={problem("textile.end_of_life.take_back_url")} />
        </div>
      </fieldset>

      <fieldset>
        <legend>Images and carbon</legend>
        <TextAreaField label="Product images" rows={2} hint="https links, one per line (at most 10)" value={draft.images} onChange={set("images")} error={problem("textile.images")} />
        <div className="form-grid">
          <TextField label="Carbon (kg CO2e per item)" inputMode="decimal" value={draft.carbon_kg} onChange={set("carbon_kg")} error={problem("textile.carbon.kg_co2e")} />
          <SelectField label="Carbon method" value={draft.carbon_method} onChange={set("carbon_method")} error={problem("textile.carbon.method")}>
            <option value="">None given</option>
            <option value="pef_study">Our PEF study</option>
            <option value="estimate">Estimate</option>
          </SelectField>
          <TextField
            label="PEF study reference"
            maxLength={300}
            hint="Needed for a PEF study: the study, its PEFCR and its verifier"
            value={draft.carbon_study_reference}
            onChange={set("carbon_study_reference")}
            error={problem("textile.carbon.study_reference")}
          />
        </div>
      </fieldset>
    </details>
  );
}
