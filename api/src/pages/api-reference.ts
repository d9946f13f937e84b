// The API reference page (GET /docs): Swagger UI, served from our own origin, rendering GET /api/openapi.json.
import { createHash } from "node:crypto";
import { html, SafeHtml } from "./html";
import type { RenderedPage } from "./layout";

/** Where the page finds its files; the router serves each of them. */
export type ApiReferenceAssets = { script: string; stylesheet: string; icon: string; init: string };

export const OPENAPI_DOCUMENT_PATH = "/api/openapi.json";

const CSS = `
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#fff}
header.bar{background:#1F2937;color:#fff;padding:12px 16px}
header.bar nav{max-width:1460px;margin:0 auto;display:flex;flex-wrap:wrap;align-items:center;gap:8px 20px}
header.bar a{color:#fff}
header.bar .home{font-weight:700;font-size:18px;text-decoration:none;margin-right:auto}
noscript p{max-width:640px;margin:24px auto;padding:0 16px}
`;

/**
 * Content-Security-Policy of the reference: scripts, styles and the document only from this origin, and requests
 * ("Try it out") only to it too. Swagger UI's icons are data: URLs in its stylesheet; its inline styles are set
 * through the DOM, which style-src does not govern, so no 'unsafe-inline' is needed.
 */
function contentSecurityPolicy(css: string): string {
  const hash = createHash("sha256").update(css, "utf8").digest("base64");
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'sha256-${hash}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function apiReferencePage(assets: ApiReferenceAssets): RenderedPage {
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Passport Registry</title>
<link rel="icon" type="image/png" href="${assets.icon}">
<link rel="stylesheet" href="${assets.stylesheet}">
<style>${new SafeHtml(CSS)}</style>
<script src="${assets.script}" defer></script>
<script src="${assets.init}" defer></script>
</head>
<body>
<header class="bar"><nav aria-label="Service">
<a class="home" href="/">Passport Registry</a>
<a href="/docs">API reference</a>
<a href="${OPENAPI_DOCUMENT_PATH}">OpenAPI document (JSON)</a>
</nav></header>
<main id="reference"><noscript><p>The reference needs JavaScript. The OpenAPI document it renders is at
<a href="${OPENAPI_DOCUMENT_PATH}">${OPENAPI_DOCUMENT_PATH}</a>.</p></noscript></main>
</body>
</html>`;
  return {
    status: 200,
    html: document.value,
    headers: {
      "Content-Security-Policy": contentSecurityPolicy(CSS),
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
    },
  };
}
