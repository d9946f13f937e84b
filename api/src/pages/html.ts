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

export function page(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f7f9; }
  main { max-width: 880px; margin: 0 auto; padding: 24px 16px; }
  h1 { font-size: 22px; margin: 0 0 16px; }
  section { background: #fff; border: 1px solid #dde1e6; border-radius: 8px; padding: 16px; margin-bottom: 16px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 0; }
  dt { color: #57606a; }
  dd { margin: 0; font-family: ui-monospace, monospace; word-break: break-all; }
  .ok { color: #1a7f37; } .bad { color: #cf222e; }
</style>
</head>
<body><main>${body}</main></body>
</html>`.value;
}
