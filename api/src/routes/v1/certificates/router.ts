// POST /api/v1/certs/issue (spec 4.10): mints the product's passport from the shared wallet and returns spec 2.6.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import { consumeQuota, refundQuota } from "../../../metering/service";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { validateBody } from "../../../middleware/validate-body";
import { BRAND_HEADER, envelopeSchema, ok, V1_ERRORS, V1_HEADERS_NOTE, v1Router } from "../router-base";
import { presentIssuance } from "./presenter";
import { issuanceResult, issueBody } from "./schemas";
import { issueCertificate } from "../../../certificates/service";

export function certificatesV1Router(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = v1Router(deps);

  router.post("/certs/issue", validateBody(issueBody), async (ctx) => {
    const brand = ctx.state.brand!;
    const { uid } = ctx.state.input as { uid: string };
    let countedIn: string | undefined;
    const issuance = await issueCertificate(deps, brand.id, uid, {
      consume: async () => void (countedIn = (await consumeQuota(deps.db, brand.id, "certs", brand.limits)).period),
      refund: async () => {
        if (countedIn) await refundQuota(deps.db, brand.id, "certs", countedIn);
      },
    });
    ok(ctx, presentIssuance(deps.config, uid.toUpperCase(), issuance), issuance.created ? 201 : 200);
  });

  openapi.add({
    method: "post",
    path: "/api/v1/certs/issue",
    tag: "Brand API v1",
    summary: "Issue a product's blockchain certificate: mint its passport from the shared wallet (gas included)",
    description:
      "Idempotent per UID: a repeat, or a concurrent call, returns the same certificate (200) and costs no quota; the " +
      "first issuance answers 201 once the transaction is mined (the wait is bounded). Counts one certificate against " +
      "the monthly quota (429 MONTHLY_LIMIT_REACHED when exhausted). Emits cert.issued, and product.certified once " +
      `the indexer has the mint at the confirmation depth. ${V1_HEADERS_NOTE}`,
    security: "apiKey",
    parameters: [BRAND_HEADER],
    requestBody: { schema: issueBody, example: { uid: "DEMO-4F7K9M2QXA" } },
    responses: {
      "201": {
        description: "issued now",
        schema: envelopeSchema(issuanceResult),
        example: {
          success: true,
          data: {
            uid: "DEMO-4F7K9M2QXA", tx_hash: "0x5c1d…", network_url: "http://127.0.0.1:3000/explorer/tx/0x5c1d…",
            certificate_pdf_url: "http://127.0.0.1:3000/certificates/DEMO-4F7K9M2QXA.pdf", status: "minted",
            token_id: "4815…", contract: "0x5FbD…", network: "hardhat-local", block_number: 130, data_hash: "0x3909…", issued_at: "2026-11-22T09:00:00.000Z",
          },
        },
      },
      "200": { description: "issued before: the same certificate", schema: envelopeSchema(issuanceResult) },
      "404": errorResponse("no product with that UID for this brand"),
      "422": errorResponse("missing or malformed uid"),
      "503": errorResponse("the chain did not confirm in time; retry the same request (it never mints twice)"),
      ...V1_ERRORS,
    },
  });
  return router;
}
