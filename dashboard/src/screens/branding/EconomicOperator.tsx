// The brand's economic operator id: the EORI (or GLN) its passports give as who places the product on the EU market.
// Checked by the API (country code, length, a GLN's check digit); an empty field clears it. Beside it, the switch for
// automatic registration at the EU registry, which sends the id (and sends it again when it changes).
import { useEffect, useState } from "react";
import { api, dataOf } from "../../api/client";
import type { EconomicOperator as Saved } from "../../api/types";
import { TextField } from "../../ui/fields";
import { focusFirstInvalid, useAction, useResource } from "../../ui/hooks";
import { ActionStatus, ErrorNotice, Loading } from "../../ui/notices";
import { Section } from "../../ui/Page";

const SCHEMES = { eori: "EORI", gln: "GLN" } as const;

export function EconomicOperator({ canWrite }: { canWrite: boolean }) {
  const saved = useResource(() => dataOf(api.GET("/api/dashboard/economic-operator")), []);
  const [draft, setDraft] = useState<string>();
  const save = useAction();

  useEffect(() => {
    if (saved.data && draft === undefined) setDraft(saved.data.economic_operator_id ?? "");
  }, [saved.data, draft]);

  const show = (next: Saved) => {
    saved.setData(next);
    setDraft(next.economic_operator_id ?? "");
  };
  const current = saved.data;

  return (
    <Section title="Economic operator" id="economic-operator">
      <p>
        Your passports name the company that places the product on the EU market by its EORI number. Without one, a GS1
        GLN will do. An exporter without an EORI of its own gives its EU importer&apos;s.
      </p>
      {saved.loading && !current && <Loading what="your economic operator id" />}
      {saved.error && !current && <ErrorNotice error={saved.error} title="The economic operator id could not be loaded." />}
      {current && draft !== undefined && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            void save
              .run(async () => {
                if (draft.trim() === (current.economic_operator_id ?? "")) return "Nothing changed.";
                const next = await dataOf(api.PUT("/api/dashboard/economic-operator", { body: { economic_operator_id: draft.trim() === "" ? null : draft } }));
                show(next);
                return next.economic_operator_id ? `Saved: ${SCHEMES[next.scheme!]} ${next.economic_operator_id}.` : "Economic operator id removed.";
              })
              .then((ok) => !ok && focusFirstInvalid(form));
          }}
        >
          <fieldset disabled={!canWrite} className="plain">
            <legend className="sr-only">Economic operator id</legend>
            <TextField
              label="EORI or GLN"
              autoComplete="off"
              spellCheck={false}
              maxLength={40}
              placeholder="DE123456789012345"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              hint={
                current.economic_operator_id
                  ? `Saved as ${SCHEMES[current.scheme!]}. EORI: country code and up to 15 letters or digits. GLN: 13 digits.${canWrite ? " Empty removes it." : ""}`
                  : "Not set. EORI: country code and up to 15 letters or digits. GLN: 13 digits."
              }
              error={save.error?.problemWith("economic_operator_id")}
            />
            <ActionStatus action={save} busyText="Saving the economic operator id…" />
            {canWrite && (
              <div className="actions">
                <button type="submit" aria-disabled={save.busy || undefined}>
                  Save economic operator id
                </button>
              </div>
            )}
          </fieldset>
        </form>
      )}
      <RegistryAuto canWrite={canWrite} />
    </Section>
  );
}

/** Automatic registration at the EU registry: saved as soon as it is switched (audited by the API). */
function RegistryAuto({ canWrite }: { canWrite: boolean }) {
  const saved = useResource(() => dataOf(api.GET("/api/dashboard/registry-auto")), []);
  const save = useAction();
  const current = saved.data;
  return (
    <div className="registry-auto">
      <h3>EU registry</h3>
      {saved.error && !current && <ErrorNotice error={saved.error} title="Automatic registration could not be loaded." />}
      {current && (
        <>
          <div className="check">
            <input
              id="registry-auto"
              type="checkbox"
              checked={current.enabled}
              disabled={!canWrite || save.busy}
              aria-describedby="registry-auto-hint"
              onChange={(e) => {
                const enabled = e.target.checked;
                void save.run(async () => {
                  const next = await dataOf(api.PUT("/api/dashboard/registry-auto", { body: { enabled } }));
                  saved.setData(next);
                  return next.enabled ? "Automatic registration is on." : "Automatic registration is off.";
                });
              }}
            />
            <label htmlFor="registry-auto">Register passports at the EU registry automatically</label>
          </div>
          <p id="registry-auto-hint" className="hint">
            When on, every passport you issue or change, and every passport already registered when this id or a
            factory&apos;s GLN changes, is sent to the EU registry with this id, without asking.
          </p>
          <ActionStatus action={save} busyText="Saving…" />
        </>
      )}
    </div>
  );
}
