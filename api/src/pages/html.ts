// Server-rendered HTML: an escaping template tag and the page shell shared by the service's pages.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Raw HTML that `html` must not escape again. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Tagged template: interpolated values are escaped unless they are SafeHtml (or arrays of it). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    const rendered = Array.isArray(value)
      ? value.map((v) => (v instanceof SafeHtml ? v.value : escapeHtml(v))).join("")
      : value instanceof SafeHtml
        ? value.value
        : escapeHtml(value);
    out += rendered + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** The stylesheet of pages that bring none of their own (the explorer). */
const DEFAULT_CSS = `
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f7f9; }
  main { max-width: 880px; margin: 0 auto; padding: 24px 16px; }
  h1 { font-size: 22px; margin: 0 0 16px; }
  section { background: #fff; border: 1px solid #dde1e6; border-radius: 8px; padding: 16px; margin-bottom: 16px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 0; }
  dt { color: #57606a; }
  dd { margin: 0; font-family: ui-monospace, monospace; word-break: break-all; }
  .ok { color: #1a7f37; } .bad { color: #cf222e; }
`;

/** What a page may add to the shell; the explorer page uses none of it. */
export type PageOptions = {
  /** Tags appended to <head> (theme colour, Open Graph, a script), built with `html`. */
  head?: SafeHtml;
  /**
   * Replaces the default stylesheet. Emitted verbatim as `<style>${css}</style>`, so a Content-Security-Policy
   * can allow it by the SHA-256 of exactly this text; it must never carry unchecked input.
   */
  css?: string;
  /** Puts `body` directly in <body> instead of in <main>, for pages with full-width headers and footers. */
  bare?: boolean;
  /** The language of the page (BCP 47), "en" by default. */
  lang?: string;
};

export function page(title: string, body: SafeHtml, options: PageOptions = {}): string {
  return html`<!doctype html>
<html lang="${options.lang ?? "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${new SafeHtml(options.css ?? DEFAULT_CSS)}</style>${options.head ?? ""}
</head>
<body>${options.bare ? body : html`<main>${body}</main>`}</body>
</html>`.value;
}
