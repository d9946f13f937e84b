// The dashboard's CSV import: upload (answered at once, imported in the background), progress, the failed rows as a
// CSV with their reasons, a template, and "issue all": a bulk issuance of every product of the import, with its progress.
import type { IncomingMessage } from "node:http";
import type { AppDeps } from "../../../deps";
import { AppError } from "../../../errors";
import { UploadTooLargeError } from "../../../imports/csv-rows";
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, getImport, importErrorsCsv, importTemplateCsv, startImport } from "../../../imports/service";
import { getBulkIssuance, latestBulkIssuanceOfImport, startBulkIssuance } from "../../../passports/bulk-issuance";
import { presentBulkIssuance } from "../../v1/certificates/presenter";
import { bulkIssuanceSchema } from "../../v1/certificates/schemas";
import { errorResponse } from "../../../openapi/registry";
import { actorOf } from "../../../team/service";
import { compile, toDetails } from "../../../validation";
import { defineRoute, type Route } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok } from "../base";
import { presentImport } from "./presenter";
import { createProductBody, importParams, importSchema } from "./schemas";

const CSV = { contentType: "text/csv", schema: { type: "string" } };

export function importRoutes(deps: AppDeps): Route[] {
  const dashboardIssuanceUrl = (id: number) => `${deps.config.publicBaseUrl}/api/dashboard/issuances/${id}`;
  // Each row is held to the create-product endpoint's own schema, compiled once.
  const checkRow = compile(createProductBody);
  const validateRow = (input: unknown) => (checkRow(input) ? [] : toDetails(checkRow.errors, "row"));
  return [
    defineRoute({
      method: "get",
      path: "/api/dashboard/imports/template.csv",
      operationId: "dashboardImportTemplate",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "A CSV with every import column and one example row",
      responses: { "200": { description: "the template", ...CSV, example: "sku,name,category,price,…\nTS-001,Organic Cotton Tee,t-shirt,890,…\n" } },
      handler: (ctx) => {
        ctx.type = "text/csv; charset=utf-8";
        ctx.set("Content-Disposition", 'attachment; filename="products-template.csv"');
        ctx.body = importTemplateCsv();
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/imports",
      operationId: "dashboardStartImport",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "products.write",
      summary: "Import products from a CSV file; answered at once, the rows are registered in the background",
      description:
        `A header row naming the columns (those of the template; sku, name, category and price required), then at most ` +
        `${IMPORT_MAX_ROWS} rows, ${IMPORT_MAX_BYTES / 1024 / 1024} MB in all. fiber_composition is written ` +
        '"cotton:95;elastane:5", certifications "GOTS:issuer:number:2027-01-01[:evidence-url];…". Each row is checked ' +
        "as POST /api/v1/products checks a body; rows that fail are kept for the errors CSV and the others imported. A " +
        "column named `error` is ignored, so a corrected errors CSV can be uploaded again. Nothing is minted. The textile " +
        "section's columns (production_date, hs_code, cn_code, stage_*, materials, substances, durability, care_symbols, …) " +
        "are described in docs/textile.md; a cell of them that cannot be read fails its row, naming the column.",
      rawBody: ["text/csv"],
      body: { type: "string", maxLength: IMPORT_MAX_BYTES, description: "the CSV file" },
      responses: {
        "202": { description: "the import, started", schema: envelopeSchema(importSchema) },
        "409": errorResponse("an import is already running for this brand"),
        "413": errorResponse("the file is larger than 10 MB (PAYLOAD_TOO_LARGE)"),
        "415": errorResponse("the body is not text/csv"),
        "422": errorResponse("not CSV, a header with unknown, repeated or missing columns, no rows or too many"),
      },
      handler: async (ctx) => {
        if (!ctx.is("text/csv")) throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the file as Content-Type: text/csv.");
        let job;
        try {
          // A declared length past the cap is refused before a byte is read; an undeclared one is counted as it comes.
          if (Number(ctx.get("Content-Length") || 0) > IMPORT_MAX_BYTES) throw new UploadTooLargeError(IMPORT_MAX_BYTES);
          job = await startImport(deps, ctx.state.brand, actorOf(ctx.state.user), requestBody(ctx.req), validateRow);
        } catch (error) {
          // Refused before the whole body was read: what is still coming is read and discarded (up to the cap, for
          // at most 10 s), so the client, still sending, gets the answer rather than a broken pipe; the connection is
          // closed after it, so no later request on it starts in the middle of this body.
          if (!ctx.req.complete) {
            ctx.set("Connection", "close");
            await discardBody(ctx.req, IMPORT_MAX_BYTES, 10_000);
          }
          throw error;
        }
        ok(ctx, presentImport(deps.config, job), 202);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/imports/:id",
      operationId: "dashboardImport",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "An import's progress: rows processed, imported and failed",
      params: importParams,
      responses: {
        "200": { description: "the import", schema: envelopeSchema(importSchema) },
        "404": errorResponse("no such import in this brand"),
        "422": errorResponse("malformed import id"),
      },
      handler: async (ctx) => ok(ctx, presentImport(deps.config, await getImport(deps, ctx.state.brand.id, Number(ctx.params.id)))),
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/imports/:id/issue",
      operationId: "dashboardIssueImport",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "certificates.issue",
      summary: "Issue the passports of every product the import registered (a bulk issuance); answered at once",
      description:
        "The same job as POST /api/v1/certs/bulk with import_id: each passport counts one certificate once (one issued " +
        "before costs nothing), past the monthly limit the rest are refused; progress from GET /api/dashboard/issuances/{id}.",
      params: importParams,
      responses: {
        "202": { description: "the bulk issuance, started", schema: envelopeSchema(bulkIssuanceSchema) },
        "404": errorResponse("no such import in this brand"),
        "409": errorResponse("the import is still running"),
        "422": errorResponse("malformed import id, or an import that registered no product"),
      },
      handler: async (ctx) => {
        const job = await startBulkIssuance(deps, ctx.state.brand.id, { importId: Number(ctx.params.id) });
        ok(ctx, presentBulkIssuance(job, dashboardIssuanceUrl(job.id)), 202);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/imports/:id/issuance",
      operationId: "dashboardImportIssuance",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "The latest bulk issuance of an import's products, with its progress; null when there is none yet",
      params: importParams,
      responses: {
        "200": { description: "the bulk issuance, or null", schema: envelopeSchema({ anyOf: [bulkIssuanceSchema, { type: "null" }] }) },
        "404": errorResponse("no such import in this brand"),
        "422": errorResponse("malformed import id"),
      },
      handler: async (ctx) => {
        const job = await latestBulkIssuanceOfImport(deps, ctx.state.brand.id, Number(ctx.params.id));
        ok(ctx, job ? presentBulkIssuance(job, dashboardIssuanceUrl(job.id)) : null);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/issuances/:id",
      operationId: "dashboardBulkIssuance",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "A bulk issuance's progress: products claimed, passports minted, confirmed and failed",
      params: importParams,
      responses: {
        "200": { description: "the bulk issuance", schema: envelopeSchema(bulkIssuanceSchema) },
        "404": errorResponse("no such bulk issuance in this brand"),
        "422": errorResponse("malformed id"),
      },
      handler: async (ctx) => {
        const job = await getBulkIssuance(deps, ctx.state.brand.id, Number(ctx.params.id));
        ok(ctx, presentBulkIssuance(job, dashboardIssuanceUrl(job.id)));
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/imports/:id/errors.csv",
      operationId: "dashboardImportErrors",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "The rows of an import that failed, as uploaded, with an `error` column saying why",
      params: importParams,
      responses: {
        "200": { description: "the failed rows", ...CSV, example: "sku,name,category,price,error\nTS-9,,t-shirt,abc,name: is required; price: must be number\n" },
        "404": errorResponse("no such import in this brand"),
        "422": errorResponse("malformed import id"),
      },
      handler: async (ctx) => {
        const csv = await importErrorsCsv(deps, ctx.state.brand.id, Number(ctx.params.id));
        ctx.type = "text/csv; charset=utf-8";
        ctx.set("Content-Disposition", `attachment; filename="import-${ctx.params.id}-errors.csv"`);
        ctx.body = csv;
      },
    }),
  ];
}

/**
 * The request's body as it arrives. A body the client stops sending is a 400. Leaving early (a refused upload) does
 * not destroy the request, so the answer still reaches the client.
 */
async function* requestBody(req: IncomingMessage): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of req.iterator({ destroyOnReturn: false })) yield chunk as Uint8Array;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(400, "BAD_REQUEST", "The request body could not be read.");
  }
}

/** Reads and drops the rest of a request body; stops at `maxBytes` more bytes or after `maxMs`, whichever is first. */
function discardBody(req: IncomingMessage, maxBytes: number, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.off("data", count);
      req.off("end", done);
      req.off("close", done);
      req.off("error", done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) {
        req.pause();
        done();
      }
    };
    const timer = setTimeout(done, maxMs);
    req.on("data", count);
    req.once("end", done);
    req.once("close", done);
    req.once("error", done);
    req.resume();
  });
}
