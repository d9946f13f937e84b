// The shopper's scan page as it would look with the unsaved branding: the API renders it (POST …/branding/preview)
// a moment after the last change, and it is shown in a sandboxed <iframe srcdoc> (no scripts, no navigation out).
import { useEffect, useState } from "react";
import { api, textOf, type ApiError } from "../../api/client";
import type { BrandingBody } from "../../api/types";

const DEBOUNCE_MS = 400;

export function LivePreview({ body, profileUrl }: { body: BrandingBody; profileUrl: string }) {
  const [html, setHtml] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [updating, setUpdating] = useState(false);
  const key = JSON.stringify(body);

  useEffect(() => {
    let current = true;
    setUpdating(true);
    const timer = window.setTimeout(() => {
      textOf(api.POST("/api/dashboard/branding/preview", { body: JSON.parse(key) as BrandingBody, parseAs: "text" })).then(
        (page) => {
          if (!current) return;
          setHtml(page);
          setError(undefined);
          setUpdating(false);
        },
        (failure: ApiError) => {
          if (!current) return;
          setError(failure);
          setUpdating(false);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [key]);

  return (
    <section className="card preview" aria-labelledby="preview-title">
      <h2 id="preview-title">Live preview</h2>
      <p className="muted">
        Your newest product&apos;s scan page with the values above, before you save.{" "}
        <a href={profileUrl} target="_blank" rel="noopener noreferrer">
          Open your brand profile<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </p>
      <p role="status" className="muted small">
        {updating ? "Updating the preview…" : error ? `The preview could not be shown: ${error.message}` : ""}
      </p>
      {html !== undefined && <iframe title="Preview of your scan page" sandbox="" srcDoc={html} className="preview-frame" />}
    </section>
  );
}
