// The dashboard's product screens: the list, registration, one product with its passport, edits re-anchored on
// chain, certificate issuance, NFC tag assignment and lost / stolen / recovered.
import type { AppDeps } from "../../../deps";
import { ValidationError } from "../../../errors";
import { sharedIndexerState } from "../../../onchain/indexed-read-cache";
import { errorResponse } from "../../../openapi/registry";
import { brandAddress } from "../../../domains/service";
import { setPassportStatus } from "../../../products/lifecycle";
import { createProduct, issueProductCertificate } from "../../../products/product-commands";
import { productDetail } from "../../../products/product-detail";
import { editProduct } from "../../../products/product-edits";
import { checkTranslations, saveProductTranslations, translationsOfProduct } from "../../../i18n/product-texts";
import { cursorOf, keyOfCursor, listProducts, type PageStart } from "../../../products/product-list";
import { assignProductTag } from "../../../tags/service";
import { actorOf } from "../../../team/service";
import { defineRoute, type Route } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok, pageOf } from "../base";
import { presentCertificate, presentDetail, presentSummary } from "./presenter";
import {
  certificateResultSchema,
  createProductBody,
  editProductBody,
  productDetailSchema,
  productListQuery,
  productPageMetaSchema,
  productSummarySchema,
  statusBody,
  statusResultSchema,
  tagBody,
  tagResultSchema,
  uidParam,
} from "./schemas";

const NOT_FOUND = errorResponse("no product with that UID in this brand");
const BAD_UID = errorResponse("malformed UID");
const CHAIN_UNAVAILABLE = errorResponse("the chain could not be reached or did not confirm in time (SERVICE_UNAVAILABLE); the message says what state the product is in");

export function productRoutes(deps: AppDeps): Route[] {
  const indexer = sharedIndexerState(deps.db, deps.config.onchainSchema);
  const detail = async (brandId: number, uid: string) => {
    const product = await productDetail(deps, brandId, uid);
    return presentDetail(deps.config, product, await translationsOfProduct(deps.db, product.product));
  };
  return [
    defineRoute({
      method: "get",
      path: "/api/dashboard/products",
      operationId: "dashboardProducts",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "The brand's products, newest first: search by UID, SKU or name, filter by passport state or category",
      query: productListQuery,
      responses: {
        "200": { description: "a page of products", schema: envelopeSchema({ type: "array", items: productSummarySchema }, productPageMetaSchema) },
        "422": errorResponse("an unknown filter or a malformed parameter, named in details"),
      },
      handler: async (ctx) => {
        const { q, status, category, after, before } = ctx.query;
        if (after !== undefined && before !== undefined) throw new ValidationError([{ field: "query.before", problem: "cannot be sent with after" }]);
        const page = pageOf(ctx.query);
        let start: PageStart = { offset: page.offset };
        if (after !== undefined) start = { after: keyOfCursor(after) };
        else if (before !== undefined) start = { before: keyOfCursor(before) };
        const list = await listProducts(deps, ctx.state.brand.id, { q, status, category }, { limit: page.perPage, ...start }, indexer);
        ok(ctx, list.items.map((item) => presentSummary(deps.config, item)), 200, {
          page: page.page,
          per_page: page.perPage,
          total: list.total,
          total_is_lower_bound: list.totalIsLowerBound,
          next_cursor: cursorOf(list.next),
          prev_cursor: cursorOf(list.previous),
        });
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/products",
      operationId: "dashboardCreateProduct",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "products.write",
      summary: "Register a product (the body and rules of POST /api/v1/products)",
      body: createProductBody,
      bodyExample: { sku: "TS-001", name: "Organic Cotton Tee", category: "t-shirt", fabric_type: "organic cotton", price: 890 },
      responses: {
        "201": { description: "registered", schema: envelopeSchema(productDetailSchema) },
        "409": errorResponse("another of the brand's products has the SKU, or another product has the same GTIN and serial (CONFLICT)"),
        "422": errorResponse("missing or invalid fields, named in details"),
      },
      handler: async (ctx) => {
        const { translations, ...input } = ctx.state.input;
        checkTranslations(translations);
        const created = await createProduct(deps, ctx.state.brand, actorOf(ctx.state.user), input);
        if (translations) await saveProductTranslations(deps.db, ctx.state.brand.id, created.uid, translations);
        ok(ctx, await detail(ctx.state.brand.id, created.uid), 201);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/products/:uid",
      operationId: "dashboardProduct",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "One product: its fields, its public passport record, the versions of its anchored content and its tag",
      params: uidParam,
      responses: { "200": { description: "the product", schema: envelopeSchema(productDetailSchema) }, "404": NOT_FOUND, "422": BAD_UID },
      handler: async (ctx) => ok(ctx, await detail(ctx.state.brand.id, ctx.params.uid)),
    }),
    defineRoute({
      method: "patch",
      path: "/api/dashboard/products/:uid",
      operationId: "dashboardEditProduct",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "products.write",
      summary: "Edit a product; an issued passport's new content hash is anchored on chain and becomes a new version",
      description:
        "Checked by the registration rules. When the passport is minted and its anchored content changes, the new hash " +
        "is sent (updateDataHash → DataHashUpdated, ERC-4906 MetadataUpdate) and the change is saved only once the " +
        "chain confirmed it, so the stored content and the anchored hash never disagree. If the chain refuses or cannot " +
        "be reached nothing changes (409 / 503); if it has not confirmed within the wait, 503 says so and the version " +
        "shows as pending until it does. Price and currency are not anchored: changing only them needs no transaction.",
      params: uidParam,
      body: editProductBody,
      bodyExample: { name: "Organic Cotton Tee (2027)", care_instructions: "Machine wash at 30 °C inside out." },
      responses: {
        "200": { description: "the product after the change", schema: envelopeSchema(productDetailSchema) },
        "404": NOT_FOUND,
        "409": errorResponse("the certificate is being issued, another change is still being anchored, another of the brand's products has the SKU, or another product has the GTIN and serial (CONFLICT)"),
        "422": errorResponse("malformed UID, or invalid fields, named in details"),
        "503": CHAIN_UNAVAILABLE,
      },
      handler: async (ctx) => {
        // Translations are presentation, not anchored content: an edit of only them sends nothing to the chain.
        const { translations, ...changes } = ctx.state.input;
        checkTranslations(translations);
        if (Object.keys(changes).length > 0) await editProduct(deps, ctx.state.brand.id, actorOf(ctx.state.user), ctx.params.uid, changes);
        if (translations) await saveProductTranslations(deps.db, ctx.state.brand.id, ctx.params.uid, translations);
        ok(ctx, await detail(ctx.state.brand.id, ctx.params.uid));
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/products/:uid/certificate",
      operationId: "dashboardIssueCertificate",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "certificates.issue",
      summary: "Issue the product's certificate: mint its passport (the issuance of POST /api/v1/certs/issue)",
      description:
        "Idempotent per UID: 202 when this call minted it (verified once the indexer has it at the confirmation depth), " +
        "200 with the same certificate when it was issued before. Counts one certificate of the monthly quota (429 " +
        "MONTHLY_LIMIT_REACHED when exhausted); a repeat costs nothing.",
      params: uidParam,
      responses: {
        "202": { description: "minted now", schema: envelopeSchema(certificateResultSchema) },
        "200": { description: "issued before: the same certificate", schema: envelopeSchema(certificateResultSchema) },
        "404": NOT_FOUND,
        "422": BAD_UID,
        "429": errorResponse("the monthly certificate quota is exhausted (MONTHLY_LIMIT_REACHED)"),
        "503": errorResponse("the chain did not confirm in time; retry (it never mints twice)"),
      },
      handler: async (ctx) => {
        const uid = ctx.params.uid.toUpperCase();
        const issuance = await issueProductCertificate(deps, ctx.state.brand, actorOf(ctx.state.user), uid);
        ok(ctx, presentCertificate(deps.config, uid, issuance, await brandAddress(deps.db, ctx.state.brand.id)), issuance.created ? 202 : 200);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/products/:uid/tag",
      operationId: "dashboardAssignTag",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "tags.assign",
      summary: "Link an NFC tag to the product's passport on chain (replacing its tag, if it had one)",
      description: "The passport must be minted. The tag.assigned webhook follows once the assignment is at the confirmation depth.",
      params: uidParam,
      body: tagBody,
      bodyExample: { tag_uid: "04A1B2C3D4E5F6" },
      responses: {
        "200": { description: "assigned", schema: envelopeSchema(tagResultSchema) },
        "404": NOT_FOUND,
        "409": errorResponse("the tag is on a product already, another assignment is in flight, or the passport is not minted"),
        "422": errorResponse("malformed UID, or a tag_uid that is not 4, 7 or 10 bytes of hex"),
        "503": CHAIN_UNAVAILABLE,
      },
      handler: async (ctx) => {
        const tag = await assignProductTag(deps, ctx.state.brand.id, actorOf(ctx.state.user), ctx.params.uid, ctx.state.input.tag_uid, { chip: ctx.state.input.chip });
        ok(ctx, { tag_hash: tag.tagHash, tx_hash: tag.txHash, explorer_url: tag.explorerUrl });
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/products/:uid/status",
      operationId: "dashboardSetPassportStatus",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "products.write",
      summary: "Mark the product lost or stolen, or recovered (status active), on chain",
      description: "A passport once reported never returns to Active on chain: `active` records it as recovered, and the answer says so.",
      params: uidParam,
      body: statusBody,
      bodyExample: { status: "stolen" },
      responses: {
        "200": { description: "changed", schema: envelopeSchema(statusResultSchema) },
        "404": NOT_FOUND,
        "409": errorResponse("the change is not allowed from the current status, or the passport is not minted"),
        "422": errorResponse("malformed UID, or a status other than lost, stolen or active"),
        "503": CHAIN_UNAVAILABLE,
      },
      handler: async (ctx) => {
        const changed = await setPassportStatus(deps, ctx.state.brand.id, actorOf(ctx.state.user), ctx.params.uid, ctx.state.input.status);
        ok(ctx, { status: changed.status, tx_hash: changed.txHash, explorer_url: changed.explorerUrl });
      },
    }),
  ];
}
