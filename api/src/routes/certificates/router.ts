// GET /certificates/:uid.pdf: the public certificate PDF of an issued passport (certificate_pdf_url of spec 2.6).
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { ValidationError } from "../../errors";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { NOT_MODIFIED, defineRoute, mountRoutes } from "../define-route";
import { UID_PATTERN } from "../dpp/schemas";
import { certificateDigest, renderCertificatePdf } from "../../certificates/pdf";
import { CertificatePdfCache } from "../../certificates/pdf-cache";
import { certificatePdfInput } from "../../certificates/service";
import { translatedNames } from "../../i18n/product-texts";
import { requestLanguage } from "../pages/language";

const PDF_FILE = new RegExp(`${UID_PATTERN.slice(0, -1)}\\.pdf$`);

/**
 * If-None-Match against our ETag (RFC 9110 13.1.2: a list, weak comparison, or "*"). Koa's ctx.fresh is not used: it
 * answers 200 whenever the request says Cache-Control: no-cache, which fetch() adds to every conditional request,
 * and the revalidation it asks for is exactly this comparison.
 */
function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return (trimmed.startsWith("W/") ? trimmed.slice(2) : trimmed) === etag;
  });
}

export function certificatesRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const pdfs = new CertificatePdfCache();

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/certificates/:file",
      operationId: "getCertificatePdf",
      tag: "Public",
      auth: "public",
      summary: "Certificate PDF of an issued passport: `<UID>.pdf` (brand, product, token, contract, transaction, data hash, QR code)",
      description:
        "In English or Bengali: `?lang=en|bn` (remembered in the `lang` cookie), else that cookie, else Accept-Language, else " +
        "English; Bengali is shaped with HarfBuzz and embeds Noto Sans Bengali. The product name is the brand's " +
        "translation in that language when it gave one. Vary: Accept-Language, Cookie.",
      params: {
        type: "object",
        required: ["file"],
        properties: { file: { type: "string", maxLength: 48, pattern: PDF_FILE.source, description: "e.g. DEMO-7K3M9Q2X.pdf" } },
      },
      // The handler's own check names the form the file must have ("must be <UID>.pdf").
      handlerChecksParams: true,
      responses: {
        "200": { description: "the PDF", contentType: "application/pdf", schema: { type: "string", format: "binary" } },
        "304": NOT_MODIFIED,
        "404": errorResponse("no issued certificate for that UID"),
        "422": errorResponse("not of the form <UID>.pdf"),
      },
      handler: async (ctx) => {
        const file = ctx.params.file;
        if (file.length > 48 || !PDF_FILE.test(file)) {
          throw new ValidationError([{ field: "file", problem: "must be <UID>.pdf" }]);
        }
        // Named by what it shows, read from the database without rendering: a revalidation costs no render, and any
        // change the PDF would show (branding, a re-anchored hash) gives a new ETag.
        const uid = file.slice(0, -".pdf".length);
        const base = await certificatePdfInput(deps, uid);
        const lang = requestLanguage(ctx);
        const translatedName = (await translatedNames(deps.db, [uid], lang)).get(uid);
        const input = { ...base, lang, product: { ...base.product, name: translatedName ?? base.product.name } };
        const digest = certificateDigest(input);
        const etag = `"${digest}"`;
        ctx.set("ETag", etag);
        ctx.set("Cache-Control", "public, max-age=3600");
        if (matchesEtag(ctx.get("If-None-Match"), etag)) {
          ctx.status = 304;
          return;
        }
        const pdf = await pdfs.get(digest, () => renderCertificatePdf(input));
        ctx.type = "application/pdf";
        ctx.set("Content-Disposition", `inline; filename="${file}"`);
        ctx.body = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
      },
    }),
  ]);
}
