// POST /api/v1/certs/issue (spec 4.10): mints the product's passport from the shared wallet and returns spec 2.6.
// POST /api/v1/certs/bulk and GET /api/v1/certs/bulk/{id}: many passports by one job, and its progress.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { defineRoute, mountRoutes } from "../../define-route";
import { envelopeSchema, ok, V1_HEADERS_NOTE, V1_TAG } from "../router-base";
import { presentBulkIssuance, presentIssuance } from "./presenter";
import { bulkBody, bulkIssuanceSchema, bulkParams, issuanceResult, issueBody } from "./schemas";
import { BULK_MAX_UIDS, bulkIssuanceUrl, getBulkIssuance, startBulkIssuance } from "../../../passports/bulk-issuance";
import { issueCertificate } from "../../../certificates/service";
import { brandAddress } from "../../../domains/service";

const TX_HASH = `0x${"5c".repeat(32)}`;

export function certificatesV1Router(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "post",
      path: "/api/v1/certs/issue",
      operationId: "issueCertificate",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Issue a product's blockchain certificate: mint its passport from the shared wallet (gas included)",
      description:
        "Idempotent per UID: a repeat, or a concurrent call, returns the same certificate (200) and costs no quota; the " +
        "first issuance answers 201 once the transaction is mined (the wait is bounded). Counts one certificate against " +
        "the monthly quota (429 MONTHLY_LIMIT_REACHED when exhausted). Emits cert.issued, and product.certified once " +
        `the indexer has the mint at the confirmation depth. ${V1_HEADERS_NOTE}`,
      body: issueBody,
      bodyExample: { uid: "DEMO-4F7K9M2QXA" },
      responses: {
        "201": {
          description: "issued now",
          schema: envelopeSchema(issuanceResult),
          example: {
            success: true,
            data: {
              uid: "DEMO-4F7K9M2QXA",
              tx_hash: TX_HASH,
              network_url: `http://127.0.0.1:3000/explorer/tx/${TX_HASH}`,
              certificate_pdf_url: "http://127.0.0.1:3000/certificates/DEMO-4F7K9M2QXA.pdf",
              status: "minted",
              token_id: "44981658092057552536133201839373791414657990487574918188685188671768504738285",
              contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
              network: "hardhat-local",
              block_number: 130,
              data_hash: `0x${"39".repeat(32)}`,
              issued_at: "2026-11-22T09:00:00.000Z",
            },
          },
        },
        "200": { description: "issued before: the same certificate", schema: envelopeSchema(issuanceResult) },
        "404": errorResponse("no product with that UID for this brand"),
        "422": errorResponse("missing or malformed uid"),
        "503": errorResponse("the chain did not confirm in time; retry the same request (it never mints twice)"),
      },
      handler: async (ctx) => {
        const brand = ctx.state.brand;
        const { uid } = ctx.state.input;
        const issuance = await issueCertificate(deps, brand.id, uid, brand.limits);
        ok(ctx, presentIssuance(deps.config, uid.toUpperCase(), issuance, await brandAddress(deps.db, brand.id)), issuance.created ? 201 : 200);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/certs/bulk",
      operationId: "issueCertificatesInBulk",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Issue the certificates of many products at once: answered 202 with a job whose progress URL is polled",
      description:
        `Either \`uids\` (at most ${BULK_MAX_UIDS.toLocaleString("en")} of the brand's products) or \`import_id\` (every ` +
        "product a CSV import of the brand registered). Nothing is minted during the request: the job claims the " +
        "products in chunks and the passports are minted in mintBatch transactions sized to the chain's block gas " +
        "limit. Each passport counts one certificate against the monthly quota once, whatever the number of jobs or " +
        "requests naming it (one issued before costs nothing); past the quota the rest are refused and counted as " +
        "failed. Each passport gets its cert.issued and product.certified as a single issuance does, and the job one " +
        `issuance.completed when every passport is final at the confirmation depth or failed. ${V1_HEADERS_NOTE}`,
      body: bulkBody,
      bodyLimitBytes: 512 * 1024,
      bodyExample: { uids: ["DEMO-4F7K9M2QXA", "DEMO-7H3N2P5RTB"] },
      responses: {
        "202": {
          description: "the job, started",
          schema: envelopeSchema(bulkIssuanceSchema),
          example: {
            success: true,
            data: {
              id: "12",
              state: "queued",
              import_id: null,
              total: 2,
              claimed: 0,
              minted: 0,
              confirmed: 0,
              failed: 0,
              progress_url: "http://127.0.0.1:3000/api/v1/certs/bulk/12",
              created_at: "2026-11-22T09:00:00.000Z",
              completed_at: null,
            },
          },
        },
        "404": errorResponse("no import with that id in this brand"),
        "409": errorResponse("the import is still running"),
        "413": errorResponse("the body is larger than 512 KB (PAYLOAD_TOO_LARGE)"),
        "422": errorResponse("neither or both of uids and import_id, a malformed UID, UIDs of no product of this brand (listed), or an import with no product"),
      },
      handler: async (ctx) => {
        const input = ctx.state.input;
        const job = await startBulkIssuance(deps, ctx.state.brand.id, "uids" in input ? { uids: input.uids } : { importId: Number(input.import_id) });
        ok(ctx, presentBulkIssuance(job, bulkIssuanceUrl(deps.config.publicBaseUrl, job.id)), 202);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/certs/bulk/:id",
      operationId: "bulkIssuance",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "A bulk issuance's progress: products claimed, passports minted, confirmed and failed",
      description: V1_HEADERS_NOTE,
      params: bulkParams,
      responses: {
        "200": { description: "the job", schema: envelopeSchema(bulkIssuanceSchema) },
        "404": errorResponse("no such job in this brand"),
        "422": errorResponse("malformed job id"),
      },
      handler: async (ctx) => {
        const job = await getBulkIssuance(deps, ctx.state.brand.id, Number(ctx.params.id));
        ok(ctx, presentBulkIssuance(job, bulkIssuanceUrl(deps.config.publicBaseUrl, job.id)));
      },
    }),
  ]);
}
