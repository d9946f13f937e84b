// The brand editor: logo, colours (with their WCAG AA contrast), tagline, about text and social links, with a live
// preview of the shopper's scan page rendered by the API from the unsaved values; and the economic operator id.
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { api, dataOf } from "../../api/client";
import type { Branding, BrandingBody } from "../../api/types";
import { ABOUT_MAX, TAGLINE_MAX, URL_MAX } from "../../limits";
import { allows, useSession } from "../../session";
import { charCount, TextAreaField, TextField } from "../../ui/fields";
import { useAction, useResource } from "../../ui/hooks";
import { ActionStatus, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { ColourField } from "./ColourField";
import { HEX } from "./contrast";
import { EconomicOperator } from "./EconomicOperator";
import { LogoEditor } from "./LogoEditor";
import { LivePreview } from "./LivePreview";

type Draft = { primary_color: string; secondary_color: string; tagline: string; about: string; facebook: string; instagram: string; website: string };

function draftOf(branding: Branding): Draft {
  return {
    primary_color: branding.primary_color ?? "",
    secondary_color: branding.secondary_color ?? "",
    tagline: branding.tagline ?? "",
    about: branding.about ?? "",
    facebook: branding.social.facebook ?? "",
    instagram: branding.social.instagram ?? "",
    website: branding.social.website ?? "",
  };
}

/** Empty text clears a field (null); the API keeps fields left out as they are. */
const valueOf = (text: string) => (text.trim() === "" ? null : text.trim());

/** Only what differs from what is saved, so a save changes (and audits) just that. */
function changes(draft: Draft, saved: Draft): BrandingBody {
  const body: BrandingBody = {};
  for (const key of ["primary_color", "secondary_color", "tagline", "about"] as const) if (draft[key] !== saved[key]) body[key] = valueOf(draft[key]);
  const social: NonNullable<BrandingBody["social"]> = {};
  for (const key of ["facebook", "instagram", "website"] as const) if (draft[key] !== saved[key]) social[key] = valueOf(draft[key]);
  if (Object.keys(social).length) body.social = social;
  return body;
}

/** What the preview shows: every value that is well-formed so far (a half-typed colour is left out). */
function previewBody(draft: Draft): BrandingBody {
  const colour = (text: string) => (HEX.test(text) ? text : null);
  const fits = (text: string, max: number) => (charCount(text) <= max ? valueOf(text) : undefined);
  const link = (text: string) => (/^https:\/\/\S+$/.test(text.trim()) ? text.trim() : null);
  return {
    primary_color: colour(draft.primary_color),
    secondary_color: colour(draft.secondary_color),
    tagline: fits(draft.tagline.replace(/[\n\t]/g, " "), TAGLINE_MAX),
    about: fits(draft.about, ABOUT_MAX),
    social: { facebook: link(draft.facebook), instagram: link(draft.instagram), website: link(draft.website) },
  };
}

export function BrandingScreen() {
  const session = useSession();
  const canWrite = allows(session, "branding.write");
  const branding = useResource(() => dataOf(api.GET("/api/dashboard/branding")), []);
  const [draft, setDraft] = useState<Draft>();
  const save = useAction();

  useEffect(() => {
    if (branding.data && !draft) setDraft(draftOf(branding.data));
  }, [branding.data, draft]);

  const data = branding.data;
  const saved = data ? draftOf(data) : undefined;
  const set = (key: keyof Draft) => (value: string) => setDraft((current) => (current ? { ...current, [key]: value } : current));
  const problem = (field: string) => save.error?.problemWith(field);
  const taglineCount = draft ? charCount(draft.tagline) : 0;
  const aboutCount = draft ? charCount(draft.about) : 0;

  return (
    <Page title="Branding" subtitle="How your scan pages, certificates and brand profile look to shoppers.">
      {branding.loading && !data && <Loading what="your branding" />}
      {branding.error && !data && <ErrorNotice error={branding.error} title="The branding could not be loaded." />}
      {data && draft && saved && (
        <div className="editor">
          <div className="editor-form">
            {!canWrite && <p className="notice">Your role can look at the branding; an owner or admin can change it.</p>}
            <LogoEditor branding={data} canWrite={canWrite} onChanged={branding.setData} />
            <Section title="Colours and text" id="brand-text">
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  const body = changes(draft, saved);
                  void save.run(async () => {
                    if (Object.keys(body).length === 0) return "Nothing changed.";
                    const next = await dataOf(api.PUT("/api/dashboard/branding", { body }));
                    branding.setData(next);
                    setDraft(draftOf(next));
                    return "Branding saved. Your pages show it now.";
                  });
                }}
              >
                <fieldset disabled={!canWrite} className="plain">
                  <legend className="sr-only">Brand colours, tagline, about text and links</legend>
                  <ColourField label="Primary colour" value={draft.primary_color} fallback={data.defaults.primary_color} onChange={set("primary_color")} error={problem("primary_color")} />
                  <ColourField label="Secondary colour" value={draft.secondary_color} fallback={data.defaults.secondary_color} onChange={set("secondary_color")} error={problem("secondary_color")} />
                  <TextField
                    label="Tagline"
                    maxLength={TAGLINE_MAX * 2}
                    value={draft.tagline}
                    onChange={(e) => set("tagline")(e.target.value)}
                    hint={`${taglineCount} of ${TAGLINE_MAX} characters`}
                    error={taglineCount > TAGLINE_MAX ? `The tagline has ${taglineCount} characters; at most ${TAGLINE_MAX}.` : problem("tagline")}
                  />
                  <TextAreaField
                    label="About"
                    rows={5}
                    maxLength={ABOUT_MAX * 2}
                    value={draft.about}
                    onChange={(e) => set("about")(e.target.value)}
                    hint={`${aboutCount} of ${ABOUT_MAX} characters`}
                    error={aboutCount > ABOUT_MAX ? `The about text has ${aboutCount} characters; at most ${ABOUT_MAX}.` : problem("about")}
                  />
                  <TextField label="Facebook page" type="url" inputMode="url" maxLength={URL_MAX} placeholder="https://facebook.com/yourbrand" hint="An https link on facebook.com" value={draft.facebook} onChange={(e) => set("facebook")(e.target.value)} error={problem("social.facebook")} />
                  <TextField label="Instagram profile" type="url" inputMode="url" maxLength={URL_MAX} placeholder="https://instagram.com/yourbrand" hint="An https link on instagram.com" value={draft.instagram} onChange={(e) => set("instagram")(e.target.value)} error={problem("social.instagram")} />
                  <TextField label="Website" type="url" inputMode="url" maxLength={URL_MAX} placeholder="https://yourbrand.com" hint="An https link" value={draft.website} onChange={(e) => set("website")(e.target.value)} error={problem("social.website")} />
                  <ActionStatus action={save} busyText="Saving the branding…" />
                  {canWrite && (
                    <div className="actions">
                      <button type="submit" aria-disabled={save.busy || undefined}>
                        Save branding
                      </button>
                      <button type="button" className="secondary" onClick={() => setDraft(saved)}>
                        Undo unsaved changes
                      </button>
                    </div>
                  )}
                </fieldset>
              </form>
            </Section>
            <EconomicOperator canWrite={canWrite} />
            <Section title="Custom domain" id="custom-domain">
              <p>Serve your scan pages and shop from your own domain, with its certificate handled for you.</p>
              <p>
                <Link href="/domain">Set up your domain</Link>
              </p>
            </Section>
            <Section title="Gateway keys" id="gateway-keys">
              <p>Connect bKash, Nagad or SSLCommerz so shoppers can pay from your pages.</p>
              {allows(session, "payments.manage") ? (
                <p>
                  <Link href="/gateway-keys">Set up payments</Link>
                </p>
              ) : (
                <p className="muted">An owner or admin sets up payments, on the Gateway keys screen.</p>
              )}
            </Section>
          </div>
          <LivePreview body={previewBody(draft)} profileUrl={data.profile_url} />
        </div>
      )}
    </Page>
  );
}
