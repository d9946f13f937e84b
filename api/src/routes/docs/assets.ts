// Static files of the API reference, served from our own origin: a fixed list from swagger-ui-dist (no CDN, no
// directory listing, nothing outside the list), compressed once, with strong ETags.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { Context } from "koa";

const gzipAsync = promisify(gzip);

/** A file ready to send: its bytes as is and gzipped, each with its own ETag. */
export type StaticAsset = { type: string; body: Buffer; etag: string; gzipped: Buffer; gzippedEtag: string };

export async function staticAsset(type: string, body: Buffer): Promise<StaticAsset> {
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 27);
  return { type, body, etag: `"${hash}"`, gzipped: await gzipAsync(body, { level: 9 }), gzippedEtag: `"${hash}-gz"` };
}

/** Sends `asset`, gzipped when the client takes it, or 304 when the client already holds that representation. */
export function sendAsset(ctx: Context, asset: StaticAsset, cacheControl: string): void {
  const gzipped = ctx.acceptsEncodings("gzip", "identity") === "gzip";
  const etag = gzipped ? asset.gzippedEtag : asset.etag;
  ctx.set("Cache-Control", cacheControl);
  ctx.set("ETag", etag);
  ctx.set("Vary", "Accept-Encoding");
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.type = asset.type;
  const held = ctx.get("If-None-Match");
  if (held && held.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    ctx.status = 304;
    return;
  }
  if (gzipped) ctx.set("Content-Encoding", "gzip");
  ctx.body = gzipped ? asset.gzipped : asset.body;
}

/** The files of swagger-ui-dist the reference page loads, and their types; any other name is not served. */
const SWAGGER_UI_FILES = {
  "swagger-ui-bundle.js": "application/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
} as const;

export type SwaggerUiFile = keyof typeof SWAGGER_UI_FILES;
/** The media types those files are served as, for the document. */
export const SWAGGER_UI_MEDIA_TYPES = [...new Set(Object.values(SWAGGER_UI_FILES).map((type) => type.split(";")[0]!))];
export const SWAGGER_UI_FILE_NAMES = Object.keys(SWAGGER_UI_FILES) as SwaggerUiFile[];

function isSwaggerUiFile(name: string): name is SwaggerUiFile {
  return Object.hasOwn(SWAGGER_UI_FILES, name);
}

/**
 * swagger-ui-dist's files under a path that names its version, so browsers may keep them a year: an upgrade changes
 * every URL. Each file is read and compressed on its first request, not at start, since most processes never serve one.
 */
export class SwaggerUiAssets {
  readonly version: string;
  private readonly dir: string;
  private readonly loaded = new Map<string, Promise<StaticAsset>>();

  constructor() {
    const manifest = require.resolve("swagger-ui-dist/package.json");
    this.dir = path.dirname(manifest);
    this.version = (require(manifest) as { version: string }).version;
  }

  /** The URL path of one of the files. */
  url(file: SwaggerUiFile): string {
    return `/docs/assets/${this.version}/${file}`;
  }

  /** The file named `file` of version `version`, or undefined when that is not one we serve. */
  get(version: string, file: string): Promise<StaticAsset> | undefined {
    if (version !== this.version || !isSwaggerUiFile(file)) return undefined;
    let asset = this.loaded.get(file);
    if (!asset) {
      // Only a name of the list reaches path.join, so no request can name a file outside the package.
      asset = readFile(path.join(this.dir, file)).then((body) => staticAsset(SWAGGER_UI_FILES[file], body));
      // A failed read is retried by the next request instead of being remembered.
      asset.catch(() => this.loaded.delete(file));
      this.loaded.set(file, asset);
    }
    return asset;
  }
}
