// Review of issue 16 (R2), on the seeded stack: odd input to the interop, Digital Link and language surfaces answers a
// spec error, never a 500; the credential's ?format=json gives the JSON-LD form to a plain browser link; a maker the
// brand only declared lends the credential none of its registry claims; the archive's verify.js fails an archive whose
// credential.json lost its signature or whose record.json says other words than the hashed content.
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";
import { rawGet } from "../support/http";
import { exportArchive, unpackArchive, verifyArchive, type Run } from "../support/archive";

const get = rawGet;

describe("issue 16 review: interop, Digital Link, languages and archive", function () {
  this.timeout(180_000);
  let stack: SeededStack;
  let base: string;
  let uid: string;
  let gtinPath: string;

  before(async () => {
    stack = await sharedStack();
    base = stack.api.url;
    const product = stack.demo.products.find((candidate) => candidate.minted && candidate.gtin)!;
    uid = product.uid;
    gtinPath = `/01/${product.gtin}`;
  });

  describe("GET /api/dpp/{uid}/credential?format=", () => {
    it("?format=json gives the JSON-LD credential to a browser's Accept, ?format=jwt the signed one", async () => {
      const browser = { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
      const json = await get(base, `/api/dpp/${uid}/credential?format=json`, browser);
      expect(json.status).to.equal(200);
      expect(json.headers["content-type"]).to.match(/^application\/ld\+json/);
      expect((JSON.parse(json.body) as { id: string }).id).to.equal(`${base}/api/dpp/${uid}/credential`);
      const jwt = await get(base, `/api/dpp/${uid}/credential?format=jwt`, { Accept: "application/ld+json" });
      expect(jwt.headers["content-type"]).to.match(/^application\/vc\+jwt/);
      expect(jwt.body.split(".")).to.have.length(3);
    });

    it("refuses an unknown format with VALIDATION_ERROR (422), not a 500", async () => {
      const answer = await get(base, `/api/dpp/${uid}/credential?format=xml`);
      expect(answer.status).to.equal(422);
      expect(JSON.parse(answer.body).error.code).to.equal("VALIDATION_ERROR");
    });

    it("is what the scan and certificate pages link as the JSON-LD form", async () => {
      for (const page of [`/scan/${uid}`, `/dpp-certificate/${uid}`]) {
        const answer = await get(base, page, { Accept: "text/html" });
        expect(answer.status, page).to.equal(200);
        expect(answer.body, page).to.contain(`<a href="/api/dpp/${uid}/credential?format=json" type="application/ld+json">`);
        expect(answer.body, page).to.contain(`<link rel="alternate" type="application/ld+json" href="/api/dpp/${uid}/credential?format=json">`);
      }
    });
  });

  describe("odd input", () => {
    it("refuses a Digital Link with malformed percent-encoding as INVALID_DIGITAL_LINK (400), not a lookup of the raw text", async () => {
      for (const path of [`${gtinPath}/21/%E0%A4%A`, `${gtinPath}/21/%ZZ`, `${gtinPath}/10/%E0/21/A1`]) {
        const answer = await get(base, path, { Accept: "application/json" });
        expect(answer.status, path).to.equal(400);
        expect(JSON.parse(answer.body).error.code, path).to.equal("INVALID_DIGITAL_LINK");
      }
      // Well-formed encoding is still decoded: %2D is "-".
      expect((await get(base, "/01/09520123000103/21/OXF%2D0001")).headers.location).to.match(/\/scan\/DEMO-7K3M9Q2X$/);
    });

    it("answers spec errors or the page, never a 500, to malformed Digital Links, Accept, Accept-Language and lang values", async () => {
      const probes: Array<[string, Record<string, string>?]> = [
        [`${gtinPath}/21/%00`],
        [`/01/${"9".repeat(5000)}`],
        [`/01/%E0`],
        [`${gtinPath}?linkType=linkset&linkType=dpp`],
        [`${gtinPath}`, { Accept: "application/linkset+json;q=abc, text/html;q=0.0001" }],
        [`${gtinPath}`, { Accept: "x".repeat(7000) }],
        [`/scan/${uid}`, { Accept: "application/vc+jwt;q=0.9,".repeat(300) }],
        [`/scan/${uid}`, { Accept: "application/vc+jwt;q=abc" }],
        [`/scan/${uid}?lang=bn&lang=en`],
        [`/scan/${uid}?lang[a]=bn`],
        [`/scan/${uid}`, { Cookie: "lang=%ZZ%E0" }],
        [`/scan/${uid}`, { "Accept-Language": "bn;q=1.5, ".repeat(800) }],
        [`/scan/${uid}`, { "Accept-Language": ";;;,,,=q" }],
        [`/certificates/${uid}.pdf?lang=%E0`],
        [`/api/dpp/%E0/credential`],
        [`/scan/%E0`, { Accept: "application/vc+jwt" }],
      ];
      for (const [path, headers] of probes) {
        const answer = await get(base, path, headers ?? {});
        expect(answer.status, `${path.slice(0, 60)} ${JSON.stringify(headers ?? {}).slice(0, 60)}`).to.be.within(200, 499);
      }
    });
  });


  describe("a maker the brand only declared", () => {
    // Demo data: factory 1002 is verified in the registry and holds OEKO-TEX, ISO9001, GRS and BCI.
    const DECLARED_FACTORY = 1002;
    let declared: string;

    before(async function () {
      this.timeout(240_000);
      const created = await createBrand(stack.api.db, { slug: `r2-${randomBytes(3).toString("hex")}`, name: "Review Apparel", uidPrefix: "RVW" });
      const v1 = (path: string, body: unknown) =>
        fetch(`${base}/api/v1${path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${created.key.key}`, "X-Service-Brand": created.brand.slug, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      const product = await v1("/products", { sku: `RVW-${randomBytes(3).toString("hex")}`, name: "Review Tee", category: "t-shirt", price: 990, factory_id: DECLARED_FACTORY });
      expect(product.status).to.equal(201);
      declared = ((await product.json()) as { data: { uid: string } }).data.uid;
      expect((await v1("/certs/issue", { uid: declared })).status).to.equal(201);
      await waitForIndexer(stack);
      const record = (await (await fetch(`${base}/api/dpp/${declared}`)).json()) as { manufacturer: Record<string, unknown> };
      expect(record.manufacturer).to.include({ factory_id: DECLARED_FACTORY, attribution: "declared_by_brand", verified: false });
    });

    it("gets no registry certifications and no 'verified' in the credential or the Catena-X export, as the record says", async () => {
      const credential = JSON.parse((await get(base, `/api/dpp/${declared}/credential?format=json`)).body) as { credentialSubject: { conformityClaim: Array<{ description: string }> } };
      const claims = credential.credentialSubject.conformityClaim.map((claim) => claim.description);
      expect(claims.filter((claim) => claim.includes("factory registry")), JSON.stringify(claims)).to.deep.equal([]);
      const catenaX = (await get(base, `/api/dpp/${declared}/catena-x`)).body;
      expect(catenaX).not.to.contain("on-chain factory registry");
    });
  });

  describe("the archive's verify script finds a tampered archive", () => {
    let work: string;
    let root: string;
    const verify = () => verifyArchive(stack, root);
    /** Runs verify.js with `file` of the passport `uid` changed by `edit` (undefined: removed), then puts it back. */
    async function verifyWith(uid: string, file: string, edit: ((text: string) => string) | undefined): Promise<Run> {
      const target = path.join(root, "passports", uid, file);
      const original = readFileSync(target, "utf8");
      if (edit) writeFileSync(target, edit(original));
      else unlinkSync(target);
      try {
        return await verify();
      } finally {
        writeFileSync(target, original);
      }
    }

    before(async function () {
      this.timeout(300_000);
      await waitForIndexer(stack);
      work = mkdtempSync(path.join(os.tmpdir(), "archive-review-"));
      const file = path.join(work, "demo.tar.gz");
      const exported = await exportArchive(stack, "demo-apparel", file);
      expect(exported.code, exported.stderr).to.equal(0);
      const unpacked = await unpackArchive(file, work, "demo-apparel");
      expect(unpacked, "the archive unpacks into one folder").to.be.a("string");
      root = unpacked!;
      const clean = await verify();
      expect(clean.code, clean.stdout + clean.stderr).to.equal(0);
    });
    after(() => {
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it("a credential.json with false claims whose credential.jwt was removed", async () => {
      const claims = path.join(root, "passports", uid, "credential.json");
      const original = readFileSync(claims, "utf8");
      writeFileSync(claims, original.replace(/"carbonFootprint": [0-9.]+/, '"carbonFootprint": 0.01'));
      const result = await verifyWith(uid, "credential.jwt", undefined).finally(() => writeFileSync(claims, original));
      expect(original).to.match(/"carbonFootprint": [0-9.]+/);
      expect(result.code, result.stdout).to.equal(1);
      expect(result.stdout).to.match(new RegExp(`^FAIL ${uid} .*credential\\.jwt is missing`, "m"));
    });

    it("a record.json whose content is not the content that was hashed", async () => {
      const result = await verifyWith(uid, "record.json", (text) => text.replace(/"name": "([^"]+)"/, '"name": "$1 (forged)"'));
      expect(result.code, result.stdout).to.equal(1);
      expect(result.stdout).to.match(new RegExp(`^FAIL ${uid} .*record\\.json`, "m"));
    });
  });
});
