// Brand products (spec 4.8, 4.9, 4.11): register, read the certificate record, read carbon and warranty data.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import { consumeQuota } from "../../../metering/service";
import { renderJson, sendJson, type RenderedJson } from "../../../middleware/etag";
import { IDEMPOTENCY_KEY, idempotent } from "../../../middleware/idempotency";
import { IndexedReadCache, sharedIndexerState } from "../../../onchain/indexed-read-cache";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { brandProduct, productCertificate, registerProduct } from "../../../products/service";
import { warrantyFor } from "../../../products/warranty";
import { brandAddress } from "../../../domains/service";
import { defineRoute, mountRoutes } from "../../define-route";
import { API_VERSION, envelopeSchema, ok, V1_HEADERS_NOTE, V1_TAG } from "../router-base";
import { presentCertificateRecord, presentEnrichment, presentRegistration } from "./presenter";
import { checkTranslations, saveProductTranslations, translationsOfProduct } from "../../../i18n/product-texts";
import type { PublicPassport } from "../../../passports/public-passport";
import { certificateRecord, createProductBody, enrichmentRecord, registrationResult, uidParam } from "./schemas";

/** The v1 record of a product with the brand's translations of its name and description. */
async function certificateRecordWithTranslations(deps: AppDeps, passport: PublicPassport) {
  return presentCertificateRecord(deps.config, passport, await translationsOfProduct(deps.db, passport.product));
}

export function productsRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  // The same short read cache as the public record (indexed-read-cache.ts), keyed by brand and UID.
  // The v1 envelope is cached rendered: a hot read sends the same bytes without presenting or serialising again.
  const records = new IndexedReadCache<RenderedJson>({ ttlMs: 1000, maxEntries: 1000 });
  const indexer = sharedIndexerState(deps.db, deps.config.onchainSchema);

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "post",
      path: "/api/v1/products",
      operationId: "registerProduct",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Register a product: issues its NFC UID, passport URL, scan URL and badge snippet",
      description:
        "Fields of spec 4.8, plus optional extensions: factory_id (a registry factory), fiber_composition (EU 1007/2011 " +
        "fibre names, percentages summing to 100), certifications, care_instructions, country_of_manufacture. Without " +
        "fiber_composition, one is read from fabric_type where it names fibres (\"cotton\", \"60% cotton 40% polyester\"); " +
        "a fabric_type that names none is accepted and the composition stays unknown. Send an " +
        "`Idempotency-Key` header to make retries safe: the same key returns the first response (header " +
        "Idempotent-Replayed: true) and creates nothing; the same key with another body is 409 CONFLICT. " +
        V1_HEADERS_NOTE,
      headers: [{ name: "Idempotency-Key", schema: { type: "string", pattern: IDEMPOTENCY_KEY.source }, description: "makes a retry safe: the same key returns the first response" }],
      body: createProductBody,
      bodyExample: { sku: "TS-001", name: "Organic Cotton Tee", category: "t-shirt", fabric_type: "organic cotton", price: 890, description: "Crew neck, 180 gsm" },
      after: [idempotent(deps, "POST /api/v1/products")],
      responses: {
        "201": {
          description: "registered (spec 2.4 in the envelope, with meta)",
          schema: envelopeSchema(registrationResult, {
            type: "object",
            required: ["api_version", "brand_slug", "timestamp"],
            properties: { api_version: { const: "1.0" }, brand_slug: { type: "string" }, timestamp: { type: "string", format: "date-time" } },
          }),
          example: {
            success: true,
            data: {
              uid: "DEMO-4F7K9M2QXA", product_id: 7, sku: "TS-001", name: "Organic Cotton Tee",
              dpp_url: "http://127.0.0.1:3000/api/dpp/DEMO-4F7K9M2QXA",
              certificate_url: "http://127.0.0.1:3000/dpp-certificate/DEMO-4F7K9M2QXA",
              scan_url: "http://127.0.0.1:3000/scan/DEMO-4F7K9M2QXA",
              embed_snippet: '<div class="service-badge" data-uid="DEMO-4F7K9M2QXA"></div>',
              carbon_rating: "A", carbon_kg: 1.29,
            },
            meta: { api_version: "1.0", brand_slug: "demo-apparel", timestamp: "2026-11-22T09:00:00.000Z" },
          },
        },
        "409": errorResponse("the Idempotency-Key was used with another body, another of the brand's products has the SKU, or another product has the GTIN and serial (CONFLICT)"),
        "422": errorResponse("missing or invalid fields, named in details"),
      },
      handler: async (ctx) => {
        const brand = ctx.state.brand;
        const { translations, ...input } = ctx.state.input;
        checkTranslations(translations);
        const db = ctx.state.transaction ?? deps.db;
        const created = await registerProduct(db, brand, input);
        if (translations) await saveProductTranslations(db, brand.id, created.uid, translations);
        ok(ctx, presentRegistration(deps.config, input, created, await brandAddress(deps.db, brand.id)), 201, {
          api_version: API_VERSION,
          brand_slug: brand.slug,
          timestamp: new Date().toISOString(),
        });
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/products/:uid",
      operationId: "getProduct",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "The certificate record of one of the brand's products (spec 2.5)",
      description:
        "Before issuance blockchain.verified is false and tx_hash null. Another brand's UID is 404. What the brand did " +
        "not declare was filled in at registration and `provenance` says so: fiber_composition read from fabric_type " +
        '("not declared" when it names no fibres for certain), care_instructions from the brand\'s text for the category ' +
        "or the built-in one, country_of_manufacture from the factory or the brand's default (ZZ when nobody gave one). " +
        V1_HEADERS_NOTE,
      params: uidParam,
      responses: {
        "200": {
          description: "the record",
          schema: envelopeSchema(certificateRecord),
          example: {
            success: true,
            data: {
              uid: "DEMO-4F7K9M2QXA",
              product: {
                id: 7, title: "Organic Cotton Tee", sku: "TS-001", price: 890, currency: "BDT", category: "t-shirt",
                fabric_type: "organic cotton", description: "Crew neck, 180 gsm", factory_id: null, created_at: "2026-11-22T09:00:00.000Z",
              },
              dpp_url: "http://127.0.0.1:3000/api/dpp/DEMO-4F7K9M2QXA",
              blockchain: {
                verified: false, tx_hash: null, network: "hardhat-local", status: "unissued",
                token_id: "44981658092057552536133201839373791414657990487574918188685188671768504738285",
                contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3", explorer_url: null,
              },
              carbon_footprint_kg: 1.29, certifications: [], fiber_composition: "100% cotton",
              care_instructions: "Machine wash at 30 °C inside out with similar colours. Do not bleach. Tumble dry low. Iron at low heat, not on prints.",
              country_of_manufacture: "BD",
              provenance: { fiber_composition: "derived_from_fabric_type", care_instructions: "category_default", country_of_manufacture: "brand_default" },
            },
          },
        },
        "404": errorResponse("no product with that UID for this brand"),
        "422": errorResponse("malformed UID"),
      },
      handler: async (ctx) => {
        const brandId = ctx.state.brand.id;
        const uid = ctx.params.uid.toUpperCase();
        const state = await indexer().catch(() => undefined);
        const rendered = await records.read(`${brandId}:${uid}`, state?.indexedBlock, async () =>
          renderJson({ success: true, data: await certificateRecordWithTranslations(deps, await productCertificate(deps, brandId, uid, state)) }),
        );
        sendJson(ctx, rendered);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/products/:uid/enrichment",
      operationId: "getProductEnrichment",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Carbon figure and rating (spec 2.8 scale) and warranty terms of a product (spec 2.7)",
      description: `Counts one carbon rating in the brand's usage. ${V1_HEADERS_NOTE}`,
      params: uidParam,
      responses: {
        "200": {
          description: "the enrichment",
          schema: envelopeSchema(enrichmentRecord),
          example: {
            success: true,
            data: { uid: "DEMO-4F7K9M2QXA", carbon_kg: 1.29, carbon_rating: "A", warranty_months: 6, warranty_type: "manufacturing_defects", warranty_terms_en: "Covers defects …", dpp_url: "http://127.0.0.1:3000/api/dpp/DEMO-4F7K9M2QXA" },
          },
        },
        "404": errorResponse("no product with that UID for this brand"),
        "422": errorResponse("malformed UID"),
      },
      handler: async (ctx) => {
        const brand = ctx.state.brand;
        const product = await brandProduct(deps, brand.id, ctx.params.uid);
        // Carbon ratings are counted for usage (spec 2.10); limits decide whether they are capped.
        await consumeQuota(deps.db, brand.id, "carbon_ratings", brand.limits);
        ok(ctx, presentEnrichment(deps.config, product, warrantyFor(product.category)));
      },
    }),
  ]);
}
