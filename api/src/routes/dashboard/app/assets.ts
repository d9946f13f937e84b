// The built dashboard (dashboard/dist): its index.html and the hashed files under assets/, read from disk once each
// and kept compressed. Only names that exist in the build are served; nothing outside dist/assets can be named.
import { existsSync, readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { staticAsset, type StaticAsset } from "../../docs/assets";

const TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
};

/** The media types the build's files are served as, for the document. */
export const DASHBOARD_ASSET_MEDIA_TYPES = [...new Set(Object.values(TYPES).map((type) => type.split(";")[0]!))];

export class DashboardBuild {
  private readonly assetsDir: string;
  private names = new Set<string>();
  private readonly loaded = new Map<string, Promise<StaticAsset>>();
  private index: Promise<StaticAsset> | undefined;
  private indexStamp = -1;

  constructor(private readonly distDir: string) {
    this.assetsDir = path.join(distDir, "assets");
    this.scan();
  }

  private scan(): void {
    this.names = new Set(existsSync(this.assetsDir) ? readdirSync(this.assetsDir).filter((name) => TYPES[path.extname(name)]) : []);
  }

  /** Whether the build exists (npm install builds it; a checkout without `npm install` has none). */
  get built(): boolean {
    return existsSync(path.join(this.distDir, "index.html"));
  }

  /**
   * The page, read again when the build changed (a rebuild while the API runs, as in development): one stat per page
   * load, which only navigation costs, since every file it names is cached for good.
   */
  indexHtml(): Promise<StaticAsset> {
    const file = path.join(this.distDir, "index.html");
    const stamp = statSync(file).mtimeMs;
    if (!this.index || stamp !== this.indexStamp) {
      this.indexStamp = stamp;
      this.scan();
      this.index = readFile(file).then((body) => staticAsset("text/html; charset=utf-8", body));
    }
    return this.index;
  }

  /** A hashed file of the build by its name, or undefined for any other name. */
  asset(name: string): Promise<StaticAsset> | undefined {
    if (!this.names.has(name)) return undefined;
    let asset = this.loaded.get(name);
    if (!asset) {
      asset = readFile(path.join(this.assetsDir, name)).then((body) => staticAsset(TYPES[path.extname(name)]!, body));
      this.loaded.set(name, asset);
    }
    return asset;
  }
}
