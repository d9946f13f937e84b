// The shell of the customer-facing pages: the brand's theme, header and DPP footer, the security headers, and the
// friendly error pages.
import { createHash } from "node:crypto";
import type { Branding } from "../brands/branding";
import { DEFAULT_LANG, LANGUAGES, LANGUAGE_NAMES, type Lang } from "../i18n/languages";
import { messagesFor } from "../i18n/messages";
import { CARBON_COLORS } from "./carbon";
import { BENGALI_FONT_FACES } from "./fonts";
import { html, page, SafeHtml } from "./html";

export type PageBrand = { slug: string; name: string; branding: Branding };

/** A page ready to send: status, HTML and the headers that must go with it. */
export type RenderedPage = { status: number; html: string; headers: Record<string, string> };

const DEFAULT_PRIMARY = "#1F2937";
const DEFAULT_SECONDARY = "#0E7490";

/** WCAG relative luminance of a #RRGGBB colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** White or near-black, whichever reads better on `hex`: a brand may pick a pale primary colour. */
export function textOn(hex: string): string {
  const l = luminance(hex);
  // 0.0056 is the luminance of #111111.
  return 1.05 / (l + 0.05) >= (l + 0.05) / (0.0056 + 0.05) ? "#FFFFFF" : "#111111";
}

// Noto Sans Bengali first: its faces cover only Bengali (unicode-range), so Latin text keeps the system font and a
// phone without a Bengali font still renders the Bengali pages.
const BASE_CSS = `${BENGALI_FONT_FACES}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 "Noto Sans Bengali",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f3f4f6}
a{color:#0b5cad}
.brand-bar{background:var(--primary);color:var(--on-primary);padding:12px 16px}
.brand-bar .inner{max-width:640px;margin:0 auto;display:flex;align-items:center;gap:12px}
.lang-switch{margin-left:auto;font-size:14px;white-space:nowrap}
.lang-switch a{color:inherit;padding:4px 2px}
.lang-switch a[aria-current="true"]{font-weight:700;text-decoration:none}
.brand-bar a{color:inherit;text-decoration:none}
.brand-link{display:flex;align-items:center;gap:12px}
.brand-bar img{height:44px;width:auto;max-width:176px;object-fit:contain;flex:none}
.brand-name{font-weight:700;font-size:18px;line-height:1.2;margin:0}
.tagline{margin:2px 0 0;font-size:14px;opacity:.92}
.brand-bar.large{padding:28px 16px}
.brand-bar.large .brand-name{font-size:24px}
main{max-width:640px;margin:0 auto;padding:16px}
.card{background:#fff;border-radius:12px;padding:16px;margin:0 0 12px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
h1{font-size:24px;line-height:1.25;margin:4px 0 10px}
h2{font-size:13px;text-transform:uppercase;letter-spacing:.06em;color:#57606a;margin:0 0 10px}
p{margin:0 0 8px}
.eyebrow{color:#57606a;font-size:14px;margin:0}
.category{text-transform:capitalize}
.status{display:inline-block;font-weight:600;border-radius:999px;padding:4px 12px;font-size:14px;margin:0}
.status.verified{background:#dafbe1;color:#116329}
.status.unverified{background:#eaeef2;color:#424a53}
.alert{border-radius:12px;padding:12px 16px;margin:0 0 12px;font-weight:600}
.alert.danger{background:#ffebe9;color:#a40e26;border:1px solid #ff8182}
.alert.info{background:#ddf4ff;color:#0a3069}
.carbon{display:flex;align-items:center;gap:14px;border-left:4px solid var(--secondary)}
.disc{width:56px;height:56px;border-radius:50%;display:flex;align-items:center;justify-content:center;font-size:28px;font-weight:800;color:#fff;flex:none}
${Object.entries(CARBON_COLORS).map(([rating, color]) => `.disc.r${rating}{background:${color}}`).join("\n")}
.carbon .label{font-weight:700;font-size:18px;margin:0}
.carbon .kg{margin:0;color:#424a53}
ul.plain{list-style:none;padding:0;margin:0}
ul.plain li{padding:4px 0}
.fibre{display:flex;justify-content:space-between;gap:8px;text-transform:capitalize}
progress{width:100%;height:8px;accent-color:var(--primary)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:6px 12px;margin:0}
dt{color:#57606a}
dd{margin:0;overflow-wrap:anywhere}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;overflow-wrap:anywhere}
ol.timeline{list-style:none;margin:0 0 0 6px;padding:0 0 0 18px;border-left:2px solid var(--secondary)}
ol.timeline li{position:relative;padding:0 0 14px 4px}
ol.timeline li::before{content:"";position:absolute;left:-26px;top:6px;width:12px;height:12px;border-radius:50%;background:var(--secondary)}
.stage{font-weight:600;margin:0}
.muted{color:#57606a;font-size:14px}
.ok{color:#116329;font-weight:600}
.bad{color:#a40e26;font-weight:600}
.button{display:inline-block;background:var(--primary);color:var(--on-primary);padding:10px 16px;border-radius:8px;text-decoration:none;font-weight:600;margin:4px 8px 4px 0}
.button.plain{background:#fff;color:#1b1f24;border:1px solid #d0d7de}
.chip{display:inline-block;background:var(--secondary);color:var(--on-secondary);border-radius:6px;padding:2px 8px;font-weight:700;font-size:13px}
.counts{display:flex;gap:12px}
.counts div{flex:1;text-align:center}
.counts strong{display:block;font-size:28px}
.about{white-space:pre-line}
.qr{text-align:center}
.qr svg{width:180px;height:180px}
pre{background:#f6f8fa;padding:12px;border-radius:8px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px;margin:8px 0}
footer.dpp{max-width:640px;margin:4px auto 32px;padding:16px;color:#57606a;font-size:14px;text-align:center}
footer.dpp nav{margin:0 0 8px}
footer.dpp nav a{margin:0 8px}
@media (min-width:720px){h1{font-size:28px}}
`;

/** The stylesheet with the brand's colours; they come through readBranding, so only #RRGGBB reaches the CSS. */
function themeCss(branding: Branding): string {
  const primary = branding.primary_color ?? DEFAULT_PRIMARY;
  const secondary = branding.secondary_color ?? DEFAULT_SECONDARY;
  return `:root{--primary:${primary};--on-primary:${textOn(primary)};--secondary:${secondary};--on-secondary:${textOn(secondary)}}${BASE_CSS}`;
}

export type PageSecurity = { scripts?: boolean; forms?: boolean };

/**
 * Content-Security-Policy of a page: nothing runs unless `scripts` (the badge demo loads our own script), the one
 * stylesheet is allowed by its hash, images may come from https hosts (brand logos) and data: URLs.
 */
export function contentSecurityPolicy(css: string, security: PageSecurity = {}): string {
  const hash = createHash("sha256").update(css, "utf8").digest("base64");
  return [
    "default-src 'none'",
    `style-src 'sha256-${hash}'`,
    "img-src 'self' https: data:",
    // The Bengali web font, served by the pages router.
    "font-src 'self'",
    ...(security.scripts ? ["script-src 'self'", "connect-src 'self'"] : []),
    `form-action ${security.forms ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function renderPage(options: {
  title: string;
  body: SafeHtml;
  brand?: PageBrand;
  head?: SafeHtml;
  status?: number;
  security?: PageSecurity;
  /** Fixed CSS of one page, appended to the theme; never input. */
  extraCss?: string;
  /** The page's language: <html lang> and Content-Language. */
  lang?: Lang;
}): RenderedPage {
  const lang = options.lang ?? DEFAULT_LANG;
  const branding = options.brand?.branding ?? {};
  const css = themeCss(branding) + (options.extraCss ?? "");
  const head = html`
<meta name="theme-color" content="${branding.primary_color ?? DEFAULT_PRIMARY}">${options.head ?? ""}`;
  return {
    status: options.status ?? 200,
    html: page(options.title, options.body, { css, head, bare: true, lang }),
    headers: {
      "Content-Language": lang,
      "Content-Security-Policy": contentSecurityPolicy(css, options.security),
      "X-Content-Type-Options": "nosniff",
      // Scan URLs carry the tag's UID; a brand's logo host or an explorer learns no more than our origin.
      "Referrer-Policy": "same-origin",
    },
  };
}

/** Open Graph wants absolute URLs; an uploaded logo is stored as a path on our own origin. */
function absoluteUrl(value: string, base: string): string {
  try {
    return new URL(value, base).toString();
  } catch {
    return value;
  }
}

/** Open Graph tags, so a shared link previews with the product and the brand's logo. */
export function openGraph(tags: { title: string; description: string; url: string; image?: string; siteName: string }): SafeHtml {
  return html`
<meta name="description" content="${tags.description}">
<meta property="og:type" content="website">
<meta property="og:title" content="${tags.title}">
<meta property="og:description" content="${tags.description}">
<meta property="og:url" content="${tags.url}">
<meta property="og:site_name" content="${tags.siteName}">${tags.image ? html`
<meta property="og:image" content="${absoluteUrl(tags.image, tags.url)}">` : ""}`;
}

/** The white-label header: logo at 44 px, brand name, tagline below it; links to the brand's profile. */
export function brandHeader(brand: PageBrand, options: { large?: boolean; tagline?: boolean; lang?: Lang } = {}): SafeHtml {
  const { branding } = brand;
  const t = messagesFor(options.lang ?? DEFAULT_LANG);
  return html`<header class="brand-bar${options.large ? " large" : ""}"><div class="inner">
<a href="/brand/${encodeURIComponent(brand.slug)}" class="brand-link">${branding.logo_url ? html`<img src="${branding.logo_url}" alt="${t.logoAlt(brand.name)}" height="44">` : ""}
<div><p class="brand-name">${brand.name}</p>${options.tagline !== false && branding.tagline ? html`<p class="tagline">${branding.tagline}</p>` : ""}</div></a>
${options.lang ? languageSwitch(options.lang) : ""}</div></header>`;
}

/**
 * English | বাংলা: links to this page with ?lang=, which the route remembers in the `lang` cookie. Relative, so they
 * keep the path and drop the query (a tag's one-time SUN parameters must not be replayed by switching language).
 */
export function languageSwitch(current: Lang): SafeHtml {
  const t = messagesFor(current);
  const links = LANGUAGES.map(
    (lang, i) =>
      html`${i > 0 ? " | " : ""}<a href="?lang=${lang}" lang="${lang}" hreflang="${lang}"${lang === current ? html` aria-current="true"` : ""}>${LANGUAGE_NAMES[lang]}</a>`,
  );
  return html`<nav class="lang-switch" aria-label="${t.language}">${links}</nav>`;
}

/** Links to the brand's social profiles, in a fixed order; only those set. */
export function socialLinks(brand: PageBrand, lang: Lang = DEFAULT_LANG): SafeHtml[] {
  const social = brand.branding.social ?? {};
  const links: Array<[string, string | undefined]> = [
    ["Facebook", social.facebook],
    ["Instagram", social.instagram],
    [messagesFor(lang).website, social.website],
  ];
  return links.filter(([, url]) => url).map(([label, url]) => html`<a href="${url}" rel="noopener noreferrer">${label}</a>`);
}

/** The DPP footer: the brand's social links, its profile, and what this page is. */
export function dppFooter(brand: PageBrand | undefined, lang: Lang = DEFAULT_LANG): SafeHtml {
  const t = messagesFor(lang);
  const links = brand ? socialLinks(brand, lang) : [];
  return html`<footer class="dpp">
${links.length > 0 ? html`<nav aria-label="${t.elsewhere(brand!.name)}">${links}</nav>` : ""}
<p>${brand ? html`<a href="/brand/${encodeURIComponent(brand.slug)}">${brand.name}</a> · ` : ""}${t.footerTagline}</p>
</footer>`;
}

/** A plain header for pages without a brand (errors, the shopper's order page); with the switch when `lang` is given. */
export function serviceHeader(lang?: Lang): SafeHtml {
  return html`<header class="brand-bar"><div class="inner"><p class="brand-name">${messagesFor(lang ?? DEFAULT_LANG).serviceName}</p>${lang ? languageSwitch(lang) : ""}</div></header>`;
}

/** The friendly HTML answer to a missing or malformed page address. */
export function errorPage(status: number, heading: string, message: string): RenderedPage {
  return renderPage({
    status,
    title: heading,
    body: html`${serviceHeader()}<main><section class="card"><h1>${heading}</h1><p>${message}</p></section></main>${dppFooter(undefined)}`,
    head: html`
<meta name="robots" content="noindex">`,
  });
}
