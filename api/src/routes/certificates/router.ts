// GET /certificates/:uid.pdf: the public certificate PDF of an issued passport (certificate_pdf_url of spec 2.6).
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../app";
import { ValidationError } from "../../errors";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { UID_PATTERN } from "../dpp/schemas";
import { certificatePdf } from "../v1/certificates/service";

const PDF_FILE = new RegExp(`${UID_PATTERN.slice(0, -1)}\\.pdf$`);

export function certificatesRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = new Router<AppState>();

  router.get("/certificates/:file", async (ctx) => {
    const file = ctx.params.file!;
    if (file.length > 48 || !PDF_FILE.test(file)) {
      throw new ValidationError([{ field: "file", problem: "must be <UID>.pdf" }]);
    }
    const { pdf, etag } = await certificatePdf(deps, file.slice(0, -".pdf".length));
    ctx.set("ETag", etag);
    ctx.set("Cache-Control", "public, max-age=3600");
    if (ctx.get("If-None-Match") === etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = "application/pdf";
    ctx.set("Content-Disposition", `inline; filename="${file}"`);
    ctx.body = Buffer.from(pdf);
  });

  openapi.add({
    method: "get",
    path: "/certificates/:file",
    tag: "Public",
    summary: "Certificate PDF of an issued passport: `<UID>.pdf` (brand, product, token, contract, transaction, data hash, QR code)",
    parameters: [{ name: "file", in: "path", required: true, schema: { type: "string", pattern: PDF_FILE.source }, description: "e.g. DEMO-7K3M9Q2X.pdf" }],
    responses: {
      "200": { description: "the PDF", contentType: "application/pdf" },
      "404": errorResponse("no issued certificate for that UID"),
      "422": errorResponse("not of the form <UID>.pdf"),
    },
  });
  return router;
}
