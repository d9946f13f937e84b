// The served OpenAPI document against Redocly's "recommended" ruleset, the standard an integrator's tooling holds it
// to: no error, and no warning from the rules the document already meets (so they cannot quietly come back).
import { expect } from "chai";
import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { createTestDatabase } from "../support/hooks";

/** Warnings the document has no reason to have: each names a rule the registry meets for every operation. */
const RULES_WITHOUT_WARNINGS = ["operation-operationId", "info-license", "info-license-strict", "tag-description", "no-server-trailing-slash"];

type Operation = { operationId?: string; security?: unknown[]; tags: string[]; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Document = { servers: Array<{ url: string }>; tags: Array<{ name: string }>; paths: Record<string, Record<string, Operation>> };

/** "rule (n): pointer, pointer, …" per rule, most frequent first: what is left to fix, at a glance. */
function byRule(problems: NormalizedProblem[]): string {
  const groups = new Map<string, string[]>();
  for (const problem of problems) {
    const pointer = problem.location[0]?.pointer ?? "";
    groups.set(problem.ruleId, [...(groups.get(problem.ruleId) ?? []), `${pointer} ${problem.message}`]);
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([rule, where]) => `  ${rule} (${where.length}):\n${where.slice(0, 8).map((line) => `    ${line}`).join("\n")}${where.length > 8 ? `\n    … ${where.length - 8} more` : ""}`)
    .join("\n");
}

describe("OpenAPI document: Redocly recommended ruleset", () => {
  let api: InProcessApi;
  let source: string;
  let problems: NormalizedProblem[];

  before(async function () {
    this.timeout(120_000);
    // The document does not depend on the chain: nothing listens on this RPC port.
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("openapi_lint"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
    const res = await fetch(`${api.url}/api/openapi.json`);
    expect(res.status).to.equal(200);
    source = await res.text();
    const config = await createConfig({ extends: ["recommended"] });
    problems = (await lintFromString({ source, absoluteRef: `${api.url}/api/openapi.json`, config })).filter((problem) => !problem.ignored);
    const warnings = problems.filter((problem) => problem.severity === "warn");
    // Printed, not asserted: the warnings that remain are the backlog, and their count is its size.
    console.log(`      redocly recommended: ${problems.length - warnings.length} errors, ${warnings.length} warnings`);
    if (warnings.length > 0) console.log(byRule(warnings));
  });
  after(() => api?.close());

  it("reports no error", () => {
    const errors = problems.filter((problem) => problem.severity === "error");
    expect(errors, `errors by rule:\n${byRule(errors)}`).to.have.length(0);
  });

  it("has an operationId on every operation, public ones marked security: [], tags and licence declared", () => {
    const kept = problems.filter((problem) => RULES_WITHOUT_WARNINGS.includes(problem.ruleId));
    expect(kept, `warnings by rule:\n${byRule(kept)}`).to.have.length(0);
    const document = JSON.parse(source) as Document;
    expect(document.servers).to.deep.equal([{ url: api.config.publicBaseUrl }]);
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(new Set(operations.map((op) => op.operationId)).size).to.equal(operations.length);
    for (const op of operations) {
      expect(op.security, op.operationId).to.be.an("array");
      expect(document.tags.map((tag) => tag.name)).to.include(op.tags[0]);
    }
  });

  it("gives every response of every operation a schema", () => {
    const document = JSON.parse(source) as Document;
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const contents = Object.entries(response.content ?? {});
          // A response with no body (204, a redirect) has nothing to describe; one with a body needs its schema.
          if (status === "204" || status.startsWith("3")) continue;
          if (contents.length === 0) missing.push(`${method.toUpperCase()} ${path} ${status}: no content`);
          for (const [type, media] of contents) if (!media.schema) missing.push(`${method.toUpperCase()} ${path} ${status} ${type}: no schema`);
        }
      }
    }
    expect(missing, `responses without a schema:\n  ${missing.join("\n  ")}`).to.have.length(0);
  });
});
