// The dashboard's NFC tags (/api/dashboard/tags): provisioning a batch for the encoding station (a CSV with URL
// templates and, for owners and admins, the SUN keys), and the list of the brand's tags with their taps.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { PROVISION_MAX_TAGS, provisionTags, provisioningCsv, PROVISIONING_CSV_COLUMNS } from "../../../tags/provisioning";
import { listTags } from "../../../tags/tag-list";
import { brandAddress } from "../../../domains/service";
import { can } from "../../../team/roles";
import { actorOf } from "../../../team/service";
import { defineRoute, mountRoutes } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok, pageOf } from "../base";
import { presentTag } from "./presenter";
import { pageMetaSchema, provisionBody, tagListQuery, tagSchema } from "./schemas";

const CSV_EXAMPLE =
  `${PROVISIONING_CSV_COLUMNS.join(",")}\r\n` +
  "04A1B2C3D4E5F6,NTAG424,1,DEMO-7K3M9Q2X,https://dpp.example/scan/DEMO-7K3M9Q2X?picc_data=00000000000000000000000000000000&cmac=0000000000000000," +
  "5C1E0D6F3A9B2C4D8E7F6A5B4C3D2E1F,0A1B2C3D4E5F60718293A4B5C6D7E8F9\r\n";

export function dashboardTagsRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "post",
      path: "/api/dashboard/tags/provision",
      operationId: "dashboardProvisionTags",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "tags.assign",
      summary: "Provision a batch of NFC tags: a CSV for the encoding station with each tag's URL template and SUN keys",
      description:
        `At most ${PROVISION_MAX_TAGS} tags. Each tag gets a record (chip, key version; bound to its product when ` +
        "product_uids is given, one per tag in the same order). The CSV's columns: " +
        `${PROVISIONING_CSV_COLUMNS.join(", ")}. url_template is the product's scan URL (its GS1 Digital Link when it has a GTIN and serial), with SDM mirror placeholders ` +
        "(picc_data, cmac) for NTAG424; the keys (AES-128, hex) are filled in for owners and admins only (permission " +
        "tags.keys) and left empty for editors. Provisioning a tag again gives the current key version's keys. A tag " +
        "UID another brand holds refuses the whole batch (409). The audit log records the batch, never a key.",
      body: provisionBody,
      bodyExample: { chip: "NTAG424", tag_uids: ["04A1B2C3D4E5F6"], product_uids: ["DEMO-7K3M9Q2X"] },
      responses: {
        "200": { description: "the batch as CSV (Content-Disposition: attachment)", contentType: "text/csv", schema: { type: "string" }, example: CSV_EXAMPLE },
        "409": errorResponse("a tag UID is registered to another brand (CONFLICT); nothing was provisioned"),
        "422": errorResponse("malformed or repeated tag UIDs, a product UID not in the brand, or not one product per tag: details name each"),
      },
      handler: async (ctx) => {
        const { chip, tag_uids: tagUids, product_uids: productUids } = ctx.state.input;
        const withKeys = can(ctx.state.user.role, "tags.keys");
        const tags = await provisionTags(deps, ctx.state.brand.id, actorOf(ctx.state.user), { chip, tagUids: [...tagUids], productUids: productUids && [...productUids] }, { withKeys });
        ctx.status = 200;
        ctx.type = "text/csv; charset=utf-8";
        ctx.set("Content-Disposition", `attachment; filename="tags-${chip.toLowerCase()}-${new Date().toISOString().slice(0, 10)}.csv"`);
        // The file may hold keys: no cache keeps a copy.
        ctx.set("Cache-Control", "no-store");
        ctx.body = provisioningCsv(deps.config, tags, await brandAddress(deps.db, ctx.state.brand.id));
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/tags",
      operationId: "dashboardTags",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "The brand's NFC tags, newest first: status, product, last accepted counter, last tap and taps by verdict",
      query: tagListQuery,
      responses: {
        "200": { description: "a page of tags", schema: envelopeSchema({ type: "array", items: tagSchema }, pageMetaSchema) },
        "404": errorResponse("`product` names no product of this brand"),
        "422": errorResponse("an unknown filter or a malformed parameter, named in details"),
      },
      handler: async (ctx) => {
        const page = pageOf(ctx.query);
        const { items, total } = await listTags(deps, ctx.state.brand.id, { status: ctx.query.status, productUid: ctx.query.product, limit: page.perPage, offset: page.offset });
        ok(ctx, items.map(presentTag), 200, { page: page.page, per_page: page.perPage, total });
      },
    }),
  ]);
}
