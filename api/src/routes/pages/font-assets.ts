// GET /assets/fonts/noto-sans-bengali-<version>/<file>: the shopper pages' Bengali web font, from a fixed list.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { FONT_FILES, FONT_PACKAGE_DIR, FONT_PATH_PREFIX } from "../../pages/fonts";
import { NotFoundError } from "../../errors";
import { defineRoute, NOT_MODIFIED, type Route } from "../define-route";
import { sendAsset, staticAsset, type StaticAsset } from "../docs/assets";

/** The path names the version: a year, immutable. */
const FONT_CACHE = "public, max-age=31536000, immutable";

export function fontAssetRoutes(): Route[] {
  const loaded = new Map<string, Promise<StaticAsset>>();
  return [
    defineRoute({
      method: "get",
      path: `${FONT_PATH_PREFIX}/:file`,
      operationId: "getBengaliFont",
      tag: "Pages",
      auth: "public",
      summary: "Noto Sans Bengali (SIL OFL 1.1), the Bengali web font of the shopper pages: bengali-400.woff2, bengali-700.woff2 (and .woff)",
      params: {
        type: "object",
        required: ["file"],
        additionalProperties: false,
        properties: { file: { type: "string", maxLength: 32, pattern: "^bengali-[0-9]{3}\\.woff2?$", description: "e.g. bengali-400.woff2" } },
      },
      responses: {
        "200": { description: "the font file", contentType: "font/woff2", schema: { type: "string", format: "binary" } },
        "304": NOT_MODIFIED,
      },
      handler: async (ctx) => {
        const entry = Object.hasOwn(FONT_FILES, ctx.params.file) ? FONT_FILES[ctx.params.file] : undefined;
        if (!entry) throw new NotFoundError("Font");
        let asset = loaded.get(entry.file);
        if (!asset) {
          asset = readFile(path.join(FONT_PACKAGE_DIR, "files", entry.file)).then((bytes) => staticAsset(entry.type, bytes));
          loaded.set(entry.file, asset);
        }
        // Fonts load in CORS mode: a page on a brand's own address, or the dashboard's sandboxed branding preview
        // (origin null), may use them. They are public files.
        ctx.set("Access-Control-Allow-Origin", "*");
        sendAsset(ctx, await asset, FONT_CACHE);
      },
    }),
  ];
}
