// The dashboard's brand editor over HTTP against a real Postgres: branding with its contrast warning, logo upload
// (images made with sharp here: what is accepted, what is refused and why), the logo on the pages at 44 px, the live
// preview, roles, the audit log, and that a brand only ever sees its own.
import { expect } from "chai";
import sharp from "sharp";
import { createBrand } from "../../api/src/brands/service";
import { registerProduct } from "../../api/src/products/service";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

/** A logo: a filled circle (radius 0.4 × the shorter side by default) on a transparent or, with `background`, opaque canvas. */
async function logo(format: "png" | "webp", width: number, height = width, options: { background?: string; alpha?: boolean; radius?: number } = {}): Promise<Buffer> {
  const r = Math.round(Math.min(width, height) * (options.radius ?? 0.4));
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      (options.background ? `<rect width="100%" height="100%" fill="${options.background}"/>` : "") +
      `<circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="#b91c1c"/></svg>`,
  );
  let image = sharp(svg);
  if (options.background && options.alpha === false) image = image.removeAlpha();
  return format === "png" ? image.png().toBuffer() : image.webp({ lossless: true }).toBuffer();
}

describe("dashboard brand editor", () => {
  let api: InProcessApi;
  let brand: { id: number; slug: string; uidPrefix: string };
  let owner: DashboardClient;
  let viewer: DashboardClient;
  let editor: DashboardClient;

  before(async () => {
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("dashboard_brand"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
    const created = await createBrand(api.db, { slug: "editor-brand", name: "Editor Brand", uidPrefix: "EDB", plan: "growth" });
    brand = { id: created.brand.id, slug: created.brand.slug, uidPrefix: "EDB" };
    owner = await dashboardClient(api.url, api.db, brand.id, "owner");
    viewer = await dashboardClient(api.url, api.db, brand.id, "viewer");
    editor = await dashboardClient(api.url, api.db, brand.id, "editor");
  });
  after(() => api?.close());

  async function expectError(res: Response, status: number, code: string) {
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(status);
    expect(body.success).to.equal(false);
    expect(body.error.code).to.equal(code);
    return body.error as { message: string; details?: Array<{ field: string; problem: string }> };
  }
  const uploadLogo = (bytes: Buffer, type = "image/png", client = owner) =>
    client.call("/api/dashboard/branding/logo", { method: "PUT", headers: { "Content-Type": type }, body: new Uint8Array(bytes) });
  const branding = async (client = owner) => {
    const res = await client.call("/api/dashboard/branding");
    expect(res.status).to.equal(200);
    return (await json(res)).data;
  };
  const auditActions = async () => (await api.db("app.audit_log").where({ brand_id: brand.id }).orderBy("id").select("action", "actor", "target", "details")) as Array<{ action: string; actor: string; target: string | null; details: Record<string, unknown> }>;

  describe("branding", () => {
    it("reads the defaults with their contrast, a profile URL and no preview product yet", async () => {
      const data = await branding(viewer);
      expect(data).to.include({ name: "Editor Brand", slug: "editor-brand", logo_url: null, primary_color: null, tagline: null, preview_uid: null });
      expect(data.profile_url).to.equal(`${api.url}/brand/editor-brand`);
      expect(data.defaults).to.deep.equal({ primary_color: "#1F2937", secondary_color: "#0E7490" });
      expect(data.social).to.deep.equal({ facebook: null, instagram: null, website: null });
      // #1F2937 under white text is about 14.7:1; on the page background #F3F4F6 about 13.3:1.
      expect(data.contrast.primary.aa).to.equal(true);
      expect(data.contrast.primary.against_white_text).to.be.within(14.6, 14.8);
      expect(data.contrast.primary.ratio).to.equal(data.contrast.primary.against_page_background);
      expect(data.contrast.primary.warning).to.equal(null);
      // The defaults are the colours the pages really use.
      const page = await (await fetch(`${api.url}/brand/editor-brand`)).text();
      expect(page).to.contain(`--primary:${data.defaults.primary_color};`).and.to.contain(`--secondary:${data.defaults.secondary_color};`);
    });

    it("saves colours, tagline, about and https social links; a weak colour is saved with a WCAG AA warning", async () => {
      const res = await owner.call("/api/dashboard/branding", {
        method: "PUT",
        json: {
          primary_color: "#0b3d2e",
          secondary_color: "#FACC15",
          tagline: "Made to last",
          about: "Family workshop since 1998.\nOrganic cotton only.",
          social: { instagram: "https://instagram.com/editorbrand", website: "https://editor.example" },
        },
      });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).to.equal(200);
      expect(body.data).to.include({ primary_color: "#0B3D2E", secondary_color: "#FACC15", tagline: "Made to last" });
      expect(body.data.social).to.deep.equal({ facebook: null, instagram: "https://instagram.com/editorbrand", website: "https://editor.example" });
      expect(body.data.contrast.primary.aa).to.equal(true);
      // Yellow: white text on it is about 1.5:1.
      expect(body.data.contrast.secondary.aa).to.equal(false);
      expect(body.data.contrast.secondary.against_white_text).to.be.below(2);
      expect(body.data.contrast.secondary.warning).to.contain("4.5:1");

      const page = await (await fetch(`${api.url}/brand/editor-brand`)).text();
      expect(page).to.contain("--primary:#0B3D2E").and.to.contain("Made to last").and.to.contain("https://instagram.com/editorbrand");

      const entry = (await auditActions()).find((e) => e.action === "branding.updated")!;
      expect(entry.actor).to.equal(owner.email);
      expect(entry.details.fields).to.have.members(["primary_color", "secondary_color", "tagline", "about", "social.instagram", "social.website"]);
    });

    it("keeps fields left out and clears fields sent as null", async () => {
      await owner.call("/api/dashboard/branding", { method: "PUT", json: { tagline: null, social: { website: null } } });
      const data = await branding();
      expect(data.tagline).to.equal(null);
      expect(data.primary_color).to.equal("#0B3D2E");
      expect(data.social).to.deep.equal({ facebook: null, instagram: "https://instagram.com/editorbrand", website: null });
    });

    const invalid: Array<[string, unknown, string, string]> = [
      ["a colour that is not #RRGGBB", { primary_color: "#12345g" }, "primary_color", "must be a HEX colour #RRGGBB"],
      ["a colour name", { secondary_color: "red" }, "secondary_color", "must be a HEX colour #RRGGBB"],
      ["a tagline of 121 characters", { tagline: "x".repeat(121) }, "tagline", "120"],
      ["a tagline on two lines", { tagline: "one\ntwo" }, "tagline", "one line"],
      ["about of 501 characters", { about: "y".repeat(501) }, "about", "500"],
      ["a social link over http", { social: { website: "http://editor.example" } }, "social.website", "https"],
      ["a facebook link elsewhere", { social: { facebook: "https://example.com/editor" } }, "social.facebook", "facebook.com"],
      ["an unknown social network", { social: { tiktok: "https://tiktok.com/@x" } }, "social.tiktok", "not an allowed field"],
      ["a logo URL (the logo has its own upload)", { logo_url: "https://cdn.example/logo.png" }, "logo_url", "not an allowed field"],
    ];
    for (const [what, body, field, problem] of invalid) {
      it(`refuses ${what}: 422 naming the field, nothing saved`, async () => {
        const before = await branding();
        const error = await expectError(await owner.call("/api/dashboard/branding", { method: "PUT", json: body }), 422, "VALIDATION_ERROR");
        const detail = error.details!.find((d) => d.field === field);
        expect(detail, JSON.stringify(error.details)).to.not.equal(undefined);
        expect(detail!.problem).to.contain(problem);
        expect(await branding()).to.deep.equal(before);
      });
    }

    it("lets owners and admins edit, not editors or viewers; every role reads; writes need the CSRF token", async () => {
      await expectError(await viewer.call("/api/dashboard/branding", { method: "PUT", json: { tagline: "viewer" } }), 403, "FORBIDDEN");
      await expectError(await editor.call("/api/dashboard/branding", { method: "PUT", json: { tagline: "editor" } }), 403, "FORBIDDEN");
      await expectError(await uploadLogo(await logo("png", 512), "image/png", viewer), 403, "FORBIDDEN");
      await expectError(await viewer.call("/api/dashboard/branding/logo", { method: "DELETE" }), 403, "FORBIDDEN");
      expect((await editor.call("/api/dashboard/branding")).status).to.equal(200);
      await expectError(
        await owner.call("/api/dashboard/branding", { method: "PUT", headers: { "X-CSRF-Token": "wrong" }, json: { tagline: "x" } }),
        403,
        "CSRF_FAILED",
      );
      await expectError(await fetch(`${api.url}/api/dashboard/branding`), 401, "UNAUTHORIZED");
      expect((await branding()).tagline).to.equal(null);
    });
  });

  describe("logo upload", () => {
    it("accepts a 512×512 PNG with a transparent background, serves it immutable, and the pages show it at 44 px", async () => {
      const res = await uploadLogo(await logo("png", 512));
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).to.equal(200);
      expect(body.data.logo).to.deep.equal({ media_type: "image/png", width: 512, height: 512 });
      expect(body.data.logo_url).to.match(new RegExp(`^${api.url}/brand-assets/editor-brand/logo-[0-9a-f]{16}\\.png$`));

      const image = await fetch(body.data.logo_url);
      expect(image.status).to.equal(200);
      expect(image.headers.get("content-type")).to.equal("image/png");
      expect(image.headers.get("cache-control")).to.contain("immutable");
      const served = Buffer.from(await image.arrayBuffer());
      const metadata = await sharp(served).metadata();
      expect(metadata).to.include({ format: "png", width: 512, height: 512, hasAlpha: true });
      const etag = image.headers.get("etag")!;
      expect((await fetch(body.data.logo_url, { headers: { "If-None-Match": etag } })).status).to.equal(304);

      const path = new URL(body.data.logo_url).pathname;
      const { uid } = await registerProduct(api.db, brand, { sku: "LOGO-1", name: "Logo tee", category: "shirt", price: 10 });
      for (const pagePath of [`/scan/${uid}`, `/dpp-certificate/${uid}`, "/brand/editor-brand"]) {
        const page = await (await fetch(`${api.url}${pagePath}`)).text();
        expect(page, pagePath).to.contain(`<img src="${path}" alt="Editor Brand logo" height="44">`);
      }
      const entry = (await auditActions()).filter((e) => e.action === "logo.updated").pop()!;
      expect(entry.target).to.equal(path);
      expect(entry.details).to.include({ media_type: "image/png", width: 512, height: 512 });
    });

    it("accepts a transparent WebP and replaces the PNG: the old address is gone", async () => {
      const old = (await branding()).logo_url as string;
      const res = await uploadLogo(await logo("webp", 640), "image/webp");
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).to.equal(200);
      expect(body.data.logo).to.deep.equal({ media_type: "image/webp", width: 640, height: 640 });
      expect(body.data.logo_url).to.match(/\/logo-[0-9a-f]{16}\.webp$/);
      const image = await fetch(body.data.logo_url);
      expect(image.headers.get("content-type")).to.equal("image/webp");
      expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).format).to.equal("webp");
      expect((await fetch(old)).status).to.equal(404);
    });

    it("accepts a round badge that touches the edges: most of its border ring is still transparent", async () => {
      const res = await uploadLogo(await logo("png", 512, 512, { radius: 0.5 }));
      expect(res.status, await res.clone().text()).to.equal(200);
    });

    it("scales a large logo down to 1024 px a side", async () => {
      const res = await uploadLogo(await logo("png", 2048, 1024));
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).to.equal(200);
      expect(body.data.logo).to.deep.equal({ media_type: "image/png", width: 1024, height: 512 });
    });

    const refused: Array<[string, () => Promise<Buffer>, string, string]> = [
      ["a 300×300 image", () => logo("png", 300), "image/png", "must be at least 512×512 px (got 300×300)"],
      ["a 512×400 image", () => logo("webp", 512, 400), "image/webp", "must be at least 512×512 px (got 512×400)"],
      ["an opaque PNG (no alpha channel)", () => logo("png", 512, 512, { background: "#ffffff", alpha: false }), "image/png", "must have a transparent background"],
      ["a PNG with an alpha channel but a white background", () => logo("png", 512, 512, { background: "#ffffff" }), "image/png", "must have a transparent background"],
      ["an opaque WebP", () => logo("webp", 512, 512, { background: "#003366", alpha: false }), "image/webp", "must have a transparent background"],
      ["a fully transparent image", () => sharp({ create: { width: 512, height: 512, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer(), "image/png", "must not be fully transparent"],
      ["a text file called logo.png", async () => Buffer.from("this is not an image\n".repeat(40)), "image/png", "must be a PNG or WebP image"],
      ["a JPEG sent as image/png", () => sharp({ create: { width: 600, height: 600, channels: 3, background: "#fff" } }).jpeg().toBuffer(), "image/png", "must be a PNG or WebP image"],
      ["a PNG cut short", async () => (await logo("png", 512)).subarray(0, 200), "image/png", "must be a PNG or WebP image"],
      ["a PNG sent as text/plain", () => logo("png", 512), "text/plain", "must be a PNG or WebP image"],
      ["an empty body", async () => Buffer.alloc(0), "image/png", "is required"],
    ];
    for (const [what, make, type, problem] of refused) {
      it(`refuses ${what}: 422 with the reason, the logo unchanged`, async () => {
        const before = (await branding()).logo_url;
        const error = await expectError(await uploadLogo(await make(), type), 422, "VALIDATION_ERROR");
        expect(error.details).to.have.length(1);
        expect(error.details![0]!.field).to.equal("logo");
        expect(error.details![0]!.problem).to.contain(problem);
        expect((await branding()).logo_url).to.equal(before);
      });
    }

    it("refuses a file over 2 MB with 413 PAYLOAD_TOO_LARGE, whatever it holds", async () => {
      const big = Buffer.concat([await logo("png", 512), Buffer.alloc(2 * 1024 * 1024)]);
      const error = await expectError(await uploadLogo(big), 413, "PAYLOAD_TOO_LARGE");
      expect(error.details).to.deep.equal([{ field: "logo", problem: "must be at most 2 MB" }]);
    });

    it("removes the logo: gone from the branding, the asset address and the pages", async () => {
      const url = (await branding()).logo_url as string;
      const res = await owner.call("/api/dashboard/branding/logo", { method: "DELETE" });
      const body = await json(res);
      expect(res.status).to.equal(200);
      expect(body.data).to.include({ logo_url: null, logo: null });
      expect((await fetch(url)).status).to.equal(404);
      const page = await (await fetch(`${api.url}/brand/editor-brand`)).text();
      expect(page).to.not.contain("/brand-assets/");
      expect((await auditActions()).map((e) => e.action)).to.include("logo.removed");
    });

    it("serves a brand's logo only at its own brand's address", async () => {
      await uploadLogo(await logo("png", 512));
      const url = new URL((await branding()).logo_url as string);
      const other = await createBrand(api.db, { slug: "other-brand", name: "Other", uidPrefix: "OTB" });
      expect(other.brand.id).to.not.equal(brand.id);
      expect((await fetch(`${api.url}${url.pathname.replace("editor-brand", "other-brand")}`)).status).to.equal(404);
      expect((await fetch(`${api.url}/brand-assets/editor-brand/logo-0000000000000000.png`)).status).to.equal(404);
      expect((await fetch(`${api.url}/brand-assets/editor-brand/..%2f..%2fetc%2fpasswd`)).status).to.equal(404);
    });
  });

  describe("live preview", () => {
    it("renders the scan page of the newest product in the draft values, without saving them", async () => {
      const before = await branding();
      const { uid } = await registerProduct(api.db, brand, { sku: "PREV-1", name: "Preview jacket", category: "jacket", price: 99 });
      const res = await viewer.call("/api/dashboard/branding/preview", {
        method: "POST",
        json: { primary_color: "#7A1F5C", tagline: "Draft tagline", social: { facebook: "https://facebook.com/editorbrand" } },
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.contain("text/html");
      expect(res.headers.get("cache-control")).to.equal("no-store");
      const html = await res.text();
      expect(html).to.contain("--primary:#7A1F5C").and.to.contain("Draft tagline").and.to.contain("Preview jacket");
      expect(html).to.contain(`Passport ${uid}`).and.to.contain("https://facebook.com/editorbrand");
      expect(html).to.contain(`<img src="${new URL(before.logo_url).pathname}"`);
      expect(await branding()).to.deep.equal({ ...before, preview_uid: uid });
    });

    it("shows a sample product while the brand has none, and refuses invalid drafts like saving does", async () => {
      const fresh = await createBrand(api.db, { slug: "fresh-brand", name: "Fresh Brand", uidPrefix: "FRB" });
      const client = await dashboardClient(api.url, api.db, fresh.brand.id, "owner");
      const res = await client.call("/api/dashboard/branding/preview", { method: "POST" });
      expect(res.status).to.equal(200);
      const html = await res.text();
      expect(html).to.contain("Sample organic cotton shirt").and.to.contain("Fresh Brand");
      // Another brand's products and branding never show in this brand's preview.
      expect(html).to.not.contain("Editor Brand").and.to.not.contain("Preview jacket");
      const error = await expectError(await client.call("/api/dashboard/branding/preview", { method: "POST", json: { primary_color: "teal" } }), 422, "VALIDATION_ERROR");
      expect(error.details).to.deep.equal([{ field: "primary_color", problem: "must be a HEX colour #RRGGBB" }]);
      expect((await json(await client.call("/api/dashboard/branding"))).data.name).to.equal("Fresh Brand");
    });
  });
});
