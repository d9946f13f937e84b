// The logo: the current one, a new file previewed before it is sent (raw PNG or WebP body), the server's reason when
// it refuses one (size, transparency, format), and removal.
import { useEffect, useState } from "react";
import { api, dataOf, rawBody } from "../../api/client";
import type { Branding } from "../../api/types";
import { ConfirmButton } from "../../ui/buttons";
import { Field } from "../../ui/fields";
import { focusFirstInvalid, useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { Section } from "../../ui/Page";

const TYPES = ["image/png", "image/webp"];
const MAX_BYTES = 2 * 1024 * 1024;

export function LogoEditor({ branding, canWrite, onChanged }: { branding: Branding; canWrite: boolean; onChanged: (branding: Branding) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string>();
  const [fileProblem, setFileProblem] = useState<string>();
  const upload = useAction();

  useEffect(() => {
    if (!file) return setPreviewUrl(undefined);
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (chosen: File | null) => {
    upload.reset();
    setFile(chosen);
    if (chosen && !TYPES.includes(chosen.type)) setFileProblem("Choose a PNG or WebP image.");
    else if (chosen && chosen.size > MAX_BYTES) setFileProblem("The image is larger than 2 MB.");
    else setFileProblem(undefined);
  };

  return (
    <Section title="Logo" id="logo">
      <div className="logo-row">
        <figure className="logo-box">
          {branding.logo_url ? <img src={branding.logo_url} alt={`Current logo of ${branding.name}`} /> : <span className="muted">No logo yet</span>}
          <figcaption>
            Current{branding.logo ? ` (${branding.logo.width}×${branding.logo.height} px)` : ""}
          </figcaption>
        </figure>
        {previewUrl && (
          <figure className="logo-box">
            <img src={previewUrl} alt="The chosen file, not uploaded yet" />
            <figcaption>Chosen, not uploaded</figcaption>
          </figure>
        )}
      </div>
      {canWrite && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!file || fileProblem) {
              setFileProblem(fileProblem ?? "Choose an image first.");
              focusFirstInvalid(event.currentTarget);
              return;
            }
            void upload.run(async () => {
              const next = await dataOf(
                api.PUT("/api/dashboard/branding/logo", {
                  body: rawBody(file),
                  bodySerializer: (body: string) => body,
                  headers: { "Content-Type": file.type },
                }),
              );
              onChanged(next);
              setFile(null);
              return "Logo uploaded.";
            });
          }}
        >
          <Field label="New logo" hint="PNG or WebP, at least 512×512 px, transparent background, at most 2 MB" error={fileProblem ?? upload.error?.problemWith("logo")}>
            {(a11y) => <input type="file" accept="image/png,image/webp" {...a11y} onChange={(e) => choose(e.target.files?.[0] ?? null)} />}
          </Field>
          <ActionStatus action={upload} busyText="Uploading the logo…" />
          <div className="actions">
            <button type="submit" aria-disabled={upload.busy || undefined}>
              Upload logo
            </button>
            {branding.logo_url && (
              <ConfirmButton
                label="Remove logo"
                confirmLabel="Yes, remove the logo"
                question="Your pages will show your brand name instead."
                onConfirm={() =>
                  upload.run(async () => {
                    onChanged(await dataOf(api.DELETE("/api/dashboard/branding/logo")));
                    return "Logo removed.";
                  })
                }
              />
            )}
          </div>
        </form>
      )}
    </Section>
  );
}
