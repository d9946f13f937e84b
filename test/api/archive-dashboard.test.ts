// GET /api/dashboard/archive on the seeded stack: a signed-in user of any role downloads the brand's own minted
// passports as a .tar.gz attachment; another brand's passports are not in it; without a session it is a 401.
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import { expect } from "chai";
import { extract } from "tar-stream";
import { createBrand } from "../../api/src/brands/service";
import { dashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";

/** The archive's files, by path, as text. */
async function unpack(body: ArrayBuffer): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const tar = extract();
  tar.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk) => void chunks.push(Buffer.from(chunk as Uint8Array)));
    stream.on("end", () => {
      files.set(header.name, Buffer.concat(chunks).toString("utf8"));
      next();
    });
  });
  await new Promise<void>((resolve, reject) => {
    tar.on("finish", resolve);
    tar.on("error", reject);
    Readable.from(Buffer.from(body)).pipe(createGunzip()).on("error", reject).pipe(tar);
  });
  return files;
}

describe("dashboard: download the brand's passport archive", () => {
  let stack: SeededStack;
  let base: string;
  let otherUid: string;
  let otherBrandId: number;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
    // Another brand with a minted passport of its own.
    const other = await createBrand(stack.api.db, { slug: "archive-other", name: "Archive Other", uidPrefix: "ARO" });
    otherBrandId = other.brand.id;
    const headers = { Authorization: `Bearer ${other.key.key}`, "X-Service-Brand": "archive-other", "Content-Type": "application/json" };
    const created = await json(await fetch(`${base}/api/v1/products`, { method: "POST", headers, body: JSON.stringify({ sku: "ARO-1", name: "Archived tee", category: "t-shirt", price: 10 }) }));
    otherUid = created.data.uid;
    const issued = await fetch(`${base}/api/v1/certs/issue`, { method: "POST", headers, body: JSON.stringify({ uid: otherUid }) });
    expect(issued.status).to.equal(201);
  });

  it("streams the brand's own minted passports as a .tar.gz attachment, for any role", async function () {
    this.timeout(60_000);
    const demoBrand = (await stack.api.db("app.brands").where({ slug: "demo-apparel" }).first("id")) as { id: number };
    const viewer = await dashboardClient(base, stack.api.db, demoBrand.id, "viewer");
    const res = await viewer.call("/api/dashboard/archive");
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.equal("application/gzip");
    expect(res.headers.get("content-disposition")).to.match(/^attachment; filename="passport-archive-demo-apparel-\d{8}-\d{6}\.tar\.gz"$/);
    const files = await unpack(await res.arrayBuffer());
    const root = [...files.keys()][0]!.split("/")[0]!;
    for (const name of ["manifest.json", "did.json", "README.txt", "verify/verify.js", "verify/package.json"]) expect(files.has(`${root}/${name}`), name).to.equal(true);
    const manifest = JSON.parse(files.get(`${root}/manifest.json`)!) as { passports: Array<{ uid: string }> };
    const minted = stack.demo.products.filter((p) => p.minted).map((p) => p.uid);
    expect(manifest.passports.map((p) => p.uid)).to.include.members(minted);
    expect(manifest.passports.every((p) => p.uid.startsWith("DEMO-"))).to.equal(true);
    expect([...files.keys()].some((name) => name.includes(otherUid))).to.equal(false);
  });

  it("gives the other brand only its own passport", async function () {
    this.timeout(60_000);
    const owner = await dashboardClient(base, stack.api.db, otherBrandId, "owner");
    const files = await unpack(await (await owner.call("/api/dashboard/archive")).arrayBuffer());
    const manifestName = [...files.keys()].find((name) => name.endsWith("/manifest.json"))!;
    expect((JSON.parse(files.get(manifestName)!) as { passports: Array<{ uid: string }> }).passports.map((p) => p.uid)).to.deep.equal([otherUid]);
  });

  it("answers 401 without a session", async () => {
    const res = await fetch(`${base}/api/dashboard/archive`);
    expect(res.status).to.equal(401);
    expect((await json(res)).error.code).to.equal("UNAUTHORIZED");
  });
});
