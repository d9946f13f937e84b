// The "Machine-readable passport" block of the scan and certificate pages: links to the same passport as a UNTP
// credential (signed JWT, JSON-LD), as Catena-X JSON and, with a GTIN, as a GS1 Digital Link; plus <link rel=alternate>.
import { DEFAULT_LANG, type Lang } from "../i18n/languages";
import { messagesFor } from "../i18n/messages";
import { digitalLinkPath } from "../gs1/digital-link";
import { html, type SafeHtml } from "./html";

export type MachineLinks = { uid: string; gtin?: { gtin: string; lot?: string | null; serial?: string | null } | null };

/** The interop URLs of a passport (contract of issue 16, served by the interop and GS1 routers). */
export function machineUrls(links: MachineLinks): { credential: string; credentialJson: string; catenaX: string; digitalLink: string | null } {
  const base = `/api/dpp/${encodeURIComponent(links.uid)}`;
  return {
    credential: `${base}/credential`,
    // A link followed by a browser sends Accept: text/html, which would get the JWT: the query asks for the JSON-LD.
    credentialJson: `${base}/credential?format=json`,
    catenaX: `${base}/catena-x`,
    digitalLink: links.gtin ? digitalLinkPath(links.gtin) : null,
  };
}

/** <link rel="alternate"> tags, so a crawler or wallet finds the credential without scraping the page. */
export function machineReadableHead(links: MachineLinks): SafeHtml {
  const urls = machineUrls(links);
  return html`
<link rel="alternate" type="application/vc+jwt" href="${urls.credential}">
<link rel="alternate" type="application/ld+json" href="${urls.credentialJson}">`;
}

export function machineReadableCard(links: MachineLinks, lang: Lang = DEFAULT_LANG): SafeHtml {
  const t = messagesFor(lang);
  const urls = machineUrls(links);
  return html`<section class="card machine" aria-labelledby="machine-title"><h2 id="machine-title">${t.machineReadable}</h2>
<p class="muted">${t.machineReadableIntro}</p>
<ul class="plain">
<li><a href="${urls.credential}" type="application/vc+jwt">${t.credentialJwt}</a></li>
<li><a href="${urls.credentialJson}" type="application/ld+json">${t.credentialJson}</a></li>
<li><a href="${urls.catenaX}" type="application/json">${t.catenaX}</a></li>${
    urls.digitalLink ? html`
<li><a href="${urls.digitalLink}">${t.digitalLink}</a> <span class="mono">${urls.digitalLink}</span></li>` : ""
  }
</ul></section>`;
}
