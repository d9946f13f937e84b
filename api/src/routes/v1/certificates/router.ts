// POST /api/v1/certs/issue (spec 4.10): mints the product's passport from the shared wallet and returns spec 2.6.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { defineRoute, mountRoutes } from "../../define-route";
import { envelopeSchema, ok, V1_HEADERS_NOTE, V1_TAG } from "../router-base";
import { presentIssuance } from "./presenter";
import { issuanceResult, issueBody } from "./schemas";
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
  ]);
}
