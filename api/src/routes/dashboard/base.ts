// What every dashboard route shares: its OpenAPI tag, the success envelope (the same as v1's) and the schemas of the
// signed-in user and of pages of lists.
import type { JsonSchema } from "../../validation";
export { envelopeSchema, ok } from "../v1/router-base";

export const DASHBOARD_TAG = "Dashboard";

/** `page` and `per_page` query parameters: 1-based, at most 100 a page. */
export const PAGE_QUERY = {
  page: { type: "string", pattern: "^[1-9][0-9]{0,5}$", description: "1-based page number (default 1)" },
  per_page: { type: "string", pattern: "^(?:[1-9][0-9]?|100)$", description: "items per page, 1 to 100 (default 25)" },
} as const;

export function pageOf(query: { page?: string; per_page?: string }): { page: number; perPage: number; offset: number } {
  const page = Number(query.page ?? 1);
  const perPage = Number(query.per_page ?? 25);
  return { page, perPage, offset: (page - 1) * perPage };
}

export const TIMESTAMP: JsonSchema = { type: "string", format: "date-time" };
