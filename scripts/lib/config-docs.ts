// The table of docs/configuration.md, written from the variables api/src/config.ts declares (`npm run docs:config`).
import { readFileSync } from "node:fs";
import path from "node:path";
import { REFUSED, REQUIRED, VARIABLES, type Variable } from "../../api/src/config";

export const CONFIGURATION_PAGE = path.join(__dirname, "..", "..", "docs", "configuration.md");
const BEGIN = "<!-- The table below is generated from api/src/config.ts by `npm run docs:config`: edit the declarations, not the table. -->";
const END = "<!-- end of the generated table -->";

/** A default as the page shows it; one that is derived or not printable must say how to show it (`shown`). */
function shownDefault(name: string, value: unknown, shown: string | undefined): string {
  if (shown !== undefined) return shown;
  if (value === undefined) return "unset";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") return value === "" ? "empty" : `\`${String(value)}\``;
  throw new Error(`${name}: a default of this kind needs \`shown\` in its declaration`);
}

function row(name: string, declared: Variable<unknown>): string {
  const { kind, local, production, shown, doc, readBy } = declared;
  const localText = shownDefault(name, local, shown?.local);
  let productionText: string;
  if (shown?.production !== undefined) productionText = shown.production;
  else if (production === REQUIRED) productionText = "**required**";
  else if (production === REFUSED) productionText = "refused";
  else if ("production" in declared) productionText = shownDefault(name, production, undefined);
  else productionText = localText;
  const what = readBy ? `${doc} Read by ${readBy}.` : doc;
  const cells = [`\`${name}\``, kind.type, localText, productionText, what].map((cell) => cell.replaceAll("|", "\\|"));
  return `| ${cells.join(" | ")} |`;
}

/** The generated table, with the markers around it. */
export function configurationTable(): string {
  const rows = (Object.entries(VARIABLES) as Array<[string, Variable<unknown>]>).map(([name, declared]) => row(name, declared));
  return [BEGIN, "", "| variable | type | default (local) | production | what it is |", "|---|---|---|---|---|", ...rows, "", END].join("\n");
}

/** `page` with its generated table replaced by the current one (appended when the page has none yet). */
export function withCurrentTable(page: string): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start === -1 || end === -1) return `${page.trimEnd()}\n\n${configurationTable()}\n`;
  return page.slice(0, start) + configurationTable() + page.slice(end + END.length);
}

export function readConfigurationPage(): string {
  return readFileSync(CONFIGURATION_PAGE, "utf8");
}
