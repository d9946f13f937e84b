// Checks live responses against the served OpenAPI document: the operation found by method and path template, its
// status documented, its content type documented, and a JSON body valid against the response's schema (ajv, 2020-12).
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Media = { schema?: unknown };
type Response_ = { description: string; content?: Record<string, Media> };
type Operation = { operationId?: string; responses: Record<string, Response_> };
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

/** The id the document is registered under in ajv; response schemas are compiled as references into it. */
const DOCUMENT_ID = "https://contract.test/openapi.json";
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

const isParameter = (segment: string) => segment.startsWith("{") && segment.endsWith("}");
const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

export class OpenApiContract {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ template: string; pattern: RegExp; params: number }>;

  constructor(private readonly document: OpenApiDocument) {
    // Not strict: the document's schemas carry OpenAPI's own keywords (example, discriminator, xml) beside JSON
    // Schema's, and the document around them is not a schema at all. The linter checks the schemas' structure.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    // Registered whole, so a "#/components/schemas/…" reference inside a response schema resolves in the document.
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID }, DOCUMENT_ID);
    this.templates = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.split("/").map((segment) => (isParameter(segment) ? "[^/]+" : segment.replace(/[.*+?^$(){}|[\]\\]/g, "\\$&"))).join("/")}$`),
        params: template.split("/").filter(isParameter).length,
      }))
      // A literal segment wins over a parameter (/api/v1/webhooks before /api/v1/webhooks/{id}-like templates).
      .sort((a, b) => a.params - b.params);
  }

  static async load(baseUrl: string): Promise<OpenApiContract> {
    const res = await fetch(`${baseUrl}/api/openapi.json`);
    if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
    return new OpenApiContract((await res.json()) as OpenApiDocument);
  }

  /** The path template of the operation serving `method path`, or undefined when the document has none. */
  templateFor(method: string, path: string): string | undefined {
    const pathname = new URL(path, "http://contract.test").pathname;
    return this.templates.find((t) => t.pattern.test(pathname) && this.document.paths[t.template]![method.toLowerCase()])?.template;
  }

  /** Every operation of the document, as "METHOD template". */
  operations(): string[] {
    return Object.entries(this.document.paths).flatMap(([template, item]) =>
      Object.keys(item)
        .filter((method) => METHODS.has(method))
        .map((method) => `${method.toUpperCase()} ${template}`),
    );
  }

  /**
   * The ways a live response departs from the document, each as one line naming the operation and status; empty
   * when it conforms. Reads the response's body.
   */
  async check(method: string, path: string, res: Response): Promise<string[]> {
    const template = this.templateFor(method, path);
    const where = `${method.toUpperCase()} ${template ?? path} → ${res.status}`;
    if (!template) return [`${where}: no operation in the document for ${method.toUpperCase()} ${path}`];
    const operation = this.document.paths[template]![method.toLowerCase()]!;
    const name = `${operation.operationId ?? "(no operationId)"} ${where}`;
    const status = String(res.status);
    const documented = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
    const text = await res.text();
    if (!documented) return [`${name}: status not documented (documented: ${Object.keys(operation.responses).join(", ")})`];
    if (text === "") return [];

    const contentType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const content = documented.content ?? {};
    const mediaKey = Object.keys(content).find((key) => key.toLowerCase() === contentType);
    if (!mediaKey) return [`${name}: content type ${contentType || "(none)"} not documented (documented: ${Object.keys(content).join(", ") || "no content"})`];
    const media = content[mediaKey]!;
    if (!media.schema) return [`${name}: ${mediaKey} has no schema`];
    if (!/[/+]json$/.test(mediaKey)) return [];

    const pointer = ["paths", template, method.toLowerCase(), "responses", operation.responses[status] ? status : documented === operation.responses.default ? "default" : `${status[0]}XX`, "content", mediaKey, "schema"];
    const ref = `${DOCUMENT_ID}#/${pointer.map((segment) => encodeURIComponent(escapePointer(segment))).join("/")}`;
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    if (validate(JSON.parse(text))) return [];
    return [`${name}: body does not match the schema: ${describe(validate.errors ?? [])}`];
  }
}

/** The first few ajv errors, each as "where what", short enough to read in a failure list. */
function describe(errors: ErrorObject[]): string {
  const shown = errors.slice(0, 4).map((e) => `${e.instancePath || "(root)"} ${e.message}${e.keyword === "additionalProperties" ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : ""}`);
  return shown.join("; ") + (errors.length > 4 ? `; … ${errors.length - 4} more` : "");
}
