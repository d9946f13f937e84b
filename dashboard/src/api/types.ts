// Names for the shapes the screens use, all read from the generated schema (the routes' own declarations), so a
// change in an API answer breaks the type-check here rather than a screen in a browser.
import type { paths } from "./schema";

type Method = "get" | "put" | "post" | "patch" | "delete";
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type SuccessBody<O> = O extends { responses: infer R }
  ? R[Extract<keyof R, 200 | 201 | 202>] extends { content: { "application/json": infer Body } }
    ? Body
    : never
  : never;

/** The `data` of an endpoint's success envelope. */
export type DataOf<P extends keyof paths, M extends Method> = SuccessBody<Operation<P, M>> extends { data: infer Data } ? Data : never;
/** An endpoint's JSON request body. */
export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { "application/json": infer Body } } } ? Body : never;

export type PassportRecord = paths["/api/dpp/{uid}"]["get"]["responses"][200]["content"]["application/json"];
export type CreateProductBody = BodyOf<"/api/dashboard/products", "post">;
export type ProductDetail = DataOf<"/api/dashboard/products/{uid}", "get">;
export type ProductPatch = BodyOf<"/api/dashboard/products/{uid}", "patch">;
export type ProductVersion = ProductDetail["versions"][number];
export type IssueResult = DataOf<"/api/dashboard/products/{uid}/certificate", "post">;
export type ChainAction = DataOf<"/api/dashboard/products/{uid}/status", "post">;
export type Import = DataOf<"/api/dashboard/imports/{id}", "get">;
export type AuditEntry = DataOf<"/api/dashboard/audit", "get">["entries"][number];
export type Branding = DataOf<"/api/dashboard/branding", "get">;
export type BrandingBody = BodyOf<"/api/dashboard/branding", "put">;
export type WebhookEndpoint = DataOf<"/api/dashboard/webhooks", "get">["subscriptions"][number];
export type ApiKey = DataOf<"/api/dashboard/api-keys", "get">[number];
export type NewApiKey = DataOf<"/api/dashboard/api-keys", "post">;
export type EconomicOperator = DataOf<"/api/dashboard/economic-operator", "get">;
