/* eslint-disable @typescript-eslint/no-explicit-any -- the passports read here are JSON whose shape the test checks */
// Access classes (issue 27, docs/access.md) on the shared stack: one textile passport read anonymously, with a reader
// key the brand issued, with a role credential (VC-JOSE) from an issuer the operator trusts (a key made here), with an
// authority key and with the brand's own API key, over each read path that applies the classes (EN 18222 compressed
// and full, by product id, as of a date, element reads, a version's exact bytes, and the public record); forged,
// expired, untrusted, wrong-audience and revoked credentials refused; the brand's restrictions and the legal minimum;
// the pages, the certificate PDF, the UNTP credential and the Catena-X export; and the access log, entry by entry.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { keccak256, toUtf8Bytes } from "ethers";
import canonicalize from "canonicalize";
import { CompactSign, compactVerify, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type CryptoKey, type GenerateKeyPairResult } from "jose";
import { createBrand } from "../../api/src/brands/service";
import { issueAuthorityKey, trustIssuer } from "../../api/src/access/readers";
import { visibleRecord } from "../../api/src/access/service";
import { classOfPath, NO_OVERRIDES } from "../../api/src/access/classes";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { checkCatenaXPassport, checkUntpCredential } from "../support/schemas";
import { sharedStack, type SeededStack } from "../support/shared-stack";
import { runPrintedVerifyScript } from "../support/verify-script";

const V1 = "/api/dpp-lifecycle/v1";
const SPEC = "passport-registry/dpp-content/4";
const ISSUER = "did:web:recyclers.access-classes.test";
const STAGES = [
  { stage: "spinning", facility: { name: "Gujarat Spinning Mills", country: "IN", id: { scheme: "osh", value: "IN2021123AB12CD" } } },
  { stage: "making_up", facility: { name: "Ashulia Apparel", country: "BD" }, started: "2026-09-01", completed: "2026-09-20" },
];
const SUBSTANCES = [{ name: "Formaldehyde", cas: "50-00-0", ec: "200-001-8", concentration_percent: 0.01, location: "whole garment" }];
const DURABILITY = [{ property: "pilling", standard: "ISO 12945-2", result: "4", class: "B" }];
/**
 * What a public reader does not see of this passport (sorted, as every answer lists them): the facilities' names and
 * identifier by default, and its durability results, public by default, because this brand restricts them.
 */
const WITHHELD_BY_DEFAULT = ["textile.durability", "textile.stages.0.facility.id", "textile.stages.0.facility.name", "textile.stages.1.facility.name"];

type Key = { slug: string; key: string; id: number };

describe("access classes (issue 27)", () => {
  let stack: SeededStack;
  let base: string;
  let brand: Key;
  let other: Key;
  let owner: DashboardClient;
  let dpp: any;
  let dppPath: string;
  let readerKey: string;
  let readerKeyId: number;
  let otherReaderKey: string;
  let authorityKey: string;
  let authorityKeyId: number;
  let trusted: GenerateKeyPairResult;
  let untrusted: GenerateKeyPairResult;
  /** The access log entries the reads below must leave, oldest first. */
  const expectedLog: Array<{ operation: string; reader_kind: string; reader_class: string; elements: string[] }> = [];

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
    const a = await createBrand(stack.api.db, { slug: "access-classes-brand", name: "Access Apparel", uidPrefix: "ACB" });
    const b = await createBrand(stack.api.db, { slug: "access-classes-other", name: "Other Access Apparel", uidPrefix: "ACO" });
    brand = { slug: a.brand.slug, key: a.key.key, id: a.brand.id };
    other = { slug: b.brand.slug, key: b.key.key, id: b.brand.id };
    owner = await dashboardClient(base, stack.api.db, brand.id, "owner");
    // Durability is public by default; this brand shows it to readers with a legitimate interest only.
    const restricted = await owner.call("/api/dashboard/access/overrides", { method: "PUT", json: { overrides: { "textile.durability": "legitimate-interest" } } });
    expect(restricted.status, await restricted.clone().text()).to.equal(200);

    trusted = await generateKeyPair("EdDSA", { extractable: true });
    untrusted = await generateKeyPair("EdDSA", { extractable: true });
    await trustIssuer(stack.api.db, ISSUER, await exportJWK(trusted.publicKey), "Test recyclers' association");
    const authority = await issueAuthorityKey(stack.api.db, "Market surveillance (test)");
    authorityKey = authority.key;
    authorityKeyId = Number(authority.row.id);

    const created = await fetch(`${base}${V1}/dpps`, {
      method: "POST",
      headers: { Authorization: `Bearer ${brand.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" },
      body: JSON.stringify({
        granularity: "item",
        product: { sku: "ACC-1", name: "Access tee", category: "t-shirt", fabric_type: "cotton jersey" },
        fiber_composition: [{ fiber: "cotton", percent: 100 }],
        country_of_manufacture: "BD",
        textile: { stages: STAGES, substances_of_concern: SUBSTANCES, durability: DURABILITY, care: { symbols: ["wash_30"] } },
      }),
    });
    expect(created.status, await created.clone().text()).to.equal(201);
    dpp = await json(created);
    dppPath = `${V1}/dpps/${encodeURIComponent(dpp.digitalProductPassportId)}`;
    // The version's bytes are read below: wait (bounded) until it is anchored.
    for (let i = 0; i < 600; i++) {
      const { versions } = await json(await fetch(`${base}${dppPath}/versions`));
      if (versions.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  const read = (path: string, token?: string) => fetch(`${base}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

  async function credential(claims: Record<string, unknown>, key: CryptoKey = trusted.privateKey): Promise<string> {
    const now = Date.now();
    const payload = {
      "@context": ["https://www.w3.org/ns/credentials/v2"],
      type: ["VerifiableCredential", "PassportReaderCredential"],
      issuer: ISSUER,
      validFrom: new Date(now - 60_000).toISOString(),
      validUntil: new Date(now + 3_600_000).toISOString(),
      credentialSubject: { id: "did:web:recycler-one.test", role: "legitimate-interest", readerType: "recycler" },
      ...claims,
    };
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg: "EdDSA", typ: "vc+jwt" }).sign(key);
  }

  async function expectResult(res: Response, status: number, code: string) {
    expect(res.status, await res.clone().text()).to.equal(status);
    const body = await json(res);
    expect(body.messages[0]).to.include({ messageType: "Error", code });
  }

  it("classifies a path by the brand's overrides whatever paths were classified before without any", () => {
    const path = "textile.stages.0.stage";
    expect(classOfPath(path, NO_OVERRIDES)).to.equal("public");
    expect(classOfPath(path, { "textile.stages.*.stage": "legitimate-interest" })).to.equal("legitimate-interest");
    expect(classOfPath(path, { textile: "authority" })).to.equal("authority");
    expect(classOfPath(path, {})).to.equal("public");
  });

  it("issues a reader key from the dashboard (shown once, listed by prefix) for a partner of the brand", async () => {
    const res = await owner.call("/api/dashboard/access/reader-keys", { method: "POST", json: { label: "Dhaka Repair Co.", reader_type: "repairer" } });
    expect(res.status, await res.clone().text()).to.equal(201);
    const { data } = await json(res);
    expect(data.reader_key).to.match(/^pr_reader_[A-Za-z0-9_-]{43}$/);
    expect(data.key).to.include({ label: "Dhaka Repair Co.", reader_type: "repairer", state: "active" });
    readerKey = data.reader_key;
    readerKeyId = data.key.id;
    const list = (await json(await owner.call("/api/dashboard/access/reader-keys"))).data;
    expect(list.map((k: any) => k.prefix)).to.deep.equal([data.key.prefix]);
    expect(JSON.stringify(list)).not.to.contain(readerKey);
    const bad = await owner.call("/api/dashboard/access/reader-keys", { method: "POST", json: { label: "x", reader_type: "burglar" } });
    expect(bad.status).to.equal(422);
    const otherOwner = await dashboardClient(base, stack.api.db, other.id, "owner");
    otherReaderKey = (await json(await otherOwner.call("/api/dashboard/access/reader-keys", { method: "POST", json: { label: "Other's repairer", reader_type: "repairer" } }))).data.reader_key;
  });

  it("shows an anonymous reader the public elements only, over EN 18222 (compressed, full, by product id) and the public record", async () => {
    const compressed = await read(dppPath);
    expect(compressed.status).to.equal(200);
    expect(compressed.headers.get("vary")).to.match(/Authorization/i);
    const body = await json(compressed);
    const textile = body[SPEC].textile;
    expect(textile.stages.map((s: any) => s.facility)).to.deep.equal([{ country: "IN" }, { country: "BD" }]);
    expect(textile.stages[1]).to.include({ started: "2026-09-01", completed: "2026-09-20" });
    expect(textile).not.to.have.property("durability");
    expect(textile.substances_of_concern).to.deep.equal(SUBSTANCES);
    expect(body.access).to.deep.equal({ class: "public", withheld: WITHHELD_BY_DEFAULT });

    const full = await json(await read(`${dppPath}?representation=full`));
    const section = full.elements[0].elements;
    const textileElement = section.find((e: any) => e.elementId === "textile");
    expect(textileElement.elements.map((e: any) => e.elementId)).to.not.include("durability");
    const facility = textileElement.elements.find((e: any) => e.elementId === "stages").elements[0].elements.find((e: any) => e.elementId === "facility");
    expect(facility.elements.map((e: any) => e.elementId)).to.deep.equal(["country"]);
    expect(full.access).to.deep.equal({ class: "public", withheld: WITHHELD_BY_DEFAULT });

    const byProduct = await json(await read(`${V1}/dppsByProductId/${dpp[SPEC].uid}`));
    expect(byProduct.access.withheld).to.deep.equal(WITHHELD_BY_DEFAULT);
    expect(byProduct[SPEC].textile).not.to.have.property("durability");

    const recordRes = await read(`/api/dpp/${dpp[SPEC].uid}`);
    expect(recordRes.headers.get("cache-control")).to.match(/^public/);
    const record = await json(recordRes);
    expect(record.content.textile.stages[0].facility).to.deep.equal({ country: "IN" });
    expect(record.content.textile).not.to.have.property("durability");
    expect(record.access).to.deep.equal({ class: "public", withheld: WITHHELD_BY_DEFAULT });
    // The anchored hash is over the whole content: the filtered content does not match it, and says so.
    expect(keccak256(toUtf8Bytes(canonicalize(record.content)!))).not.to.equal(record.blockchain.computed_data_hash);
  });

  it("refuses an anonymous reader a restricted element and a version's exact bytes, and serves an element holding restricted ones without them", async () => {
    await expectResult(await read(`${dppPath}/elements/textile.durability`), 403, "ACCESS_CLASS_REQUIRED");
    await expectResult(await read(`${dppPath}/elements/textile.stages.0.facility.name`), 403, "ACCESS_CLASS_REQUIRED");
    const stages = await read(`${dppPath}/elements/textile.stages`);
    expect(stages.status).to.equal(200);
    expect(stages.headers.get("dpp-access-class")).to.equal("public");
    expect(stages.headers.get("dpp-withheld-elements")).to.equal(WITHHELD_BY_DEFAULT.slice(1).join(","));
    expect((await json(stages)).stages[0].facility).to.deep.equal({ country: "IN" });
    await expectResult(await read(`${dppPath}/versions/1/content`), 403, "ACCESS_CLASS_REQUIRED");
    const date = await json(await read(`${V1}/dppsByIdAndDate/${encodeURIComponent(dpp.digitalProductPassportId)}?date=2100-01-01T00:00:00Z`));
    expect(date.access.withheld).to.deep.equal(WITHHELD_BY_DEFAULT);
  });

  it("shows a reader with the brand's reader key the legitimate-interest elements, privately, and logs each read", async () => {
    const res = await read(dppPath, readerKey);
    expect(res.status).to.equal(200);
    expect(res.headers.get("cache-control")).to.equal("private, no-store");
    const body = await json(res);
    expect(body[SPEC].textile.stages[0].facility).to.deep.equal(STAGES[0]!.facility);
    expect(body[SPEC].textile.durability).to.deep.equal(DURABILITY);
    expect(body.access).to.deep.equal({ class: "legitimate-interest", withheld: [] });
    expectedLog.push({ operation: "ReadDPPById", reader_kind: "reader_key", reader_class: "legitimate-interest", elements: WITHHELD_BY_DEFAULT });

    const element = await read(`${dppPath}/elements/textile.durability`, readerKey);
    expect(element.status).to.equal(200);
    expect(await json(element)).to.deep.equal({ durability: DURABILITY });
    expectedLog.push({ operation: "ReadDataElement", reader_kind: "reader_key", reader_class: "legitimate-interest", elements: ["textile.durability"] });

    const record = await json(await read(`/api/dpp/${dpp[SPEC].uid}`, readerKey));
    expect(record.content.textile.stages[1].facility.name).to.equal("Ashulia Apparel");
    expect(record.access).to.deep.equal({ class: "legitimate-interest", withheld: [] });
    expectedLog.push({ operation: "PublicRecord", reader_kind: "reader_key", reader_class: "legitimate-interest", elements: WITHHELD_BY_DEFAULT });

    // The version's exact bytes hash to the anchor: a reader who may see every element checks it.
    const bytes = await (await read(`${dppPath}/versions/1/content`, readerKey)).text();
    const { versions } = await json(await read(`${dppPath}/versions`));
    expect(keccak256(toUtf8Bytes(bytes))).to.equal(versions[0].dataHash);
    expectedLog.push({ operation: "ReadDPPVersionContent", reader_kind: "reader_key", reader_class: "legitimate-interest", elements: WITHHELD_BY_DEFAULT });

    // Another brand's reader key reads this passport as the public does (it is scoped to its own brand), unlogged.
    const foreign = await json(await read(dppPath, otherReaderKey));
    expect(foreign.access).to.deep.equal({ class: "public", withheld: WITHHELD_BY_DEFAULT });
  });

  it("shows a reader with a valid role credential from a trusted issuer the legitimate-interest elements", async () => {
    const res = await read(`${dppPath}?representation=full`, await credential({}));
    expect(res.status, await res.clone().text()).to.equal(200);
    const body = await json(res);
    expect(body.access).to.deep.equal({ class: "legitimate-interest", withheld: [] });
    expect(body.elements[0].elements.find((e: any) => e.elementId === "textile").elements.map((e: any) => e.elementId)).to.include("durability");
    expectedLog.push({ operation: "ReadDPPById", reader_kind: "credential", reader_class: "legitimate-interest", elements: WITHHELD_BY_DEFAULT });
  });

  it("refuses a forged, expired, untrusted, wrong-audience or role-less credential and an unknown or revoked key with 401, never reading them as public", async () => {
    await expectResult(await read(dppPath, await credential({}, untrusted.privateKey)), 401, "CREDENTIAL_INVALID");
    const valid = await credential({});
    const [header, payload, signature] = valid.split(".");
    const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), credentialSubject: { role: "legitimate-interest", readerType: "market-actor" } })).toString("base64url");
    await expectResult(await read(dppPath, `${header}.${altered}.${signature}`), 401, "CREDENTIAL_INVALID");
    await expectResult(await read(dppPath, await credential({ validUntil: new Date(Date.now() - 1000).toISOString() })), 401, "CREDENTIAL_EXPIRED");
    await expectResult(await read(dppPath, await credential({ issuer: "did:web:unknown.test" }, untrusted.privateKey)), 401, "CREDENTIAL_UNTRUSTED_ISSUER");
    await expectResult(await read(dppPath, await credential({ aud: "https://another-service.test" })), 401, "CREDENTIAL_AUDIENCE");
    await expectResult(await read(dppPath, await credential({ credentialSubject: { id: "did:web:x.test", role: "authority", readerType: "recycler" } })), 401, "CREDENTIAL_INVALID");
    await expectResult(await read(dppPath, "not-a-credential"), 401, "CREDENTIAL_INVALID");
    await expectResult(await read(dppPath, `pr_reader_${"A".repeat(43)}`), 401, "READER_KEY_INVALID");
    // The public record answers in the envelope, with the same codes.
    const record = await read(`/api/dpp/${dpp[SPEC].uid}`, await credential({ validUntil: new Date(Date.now() - 1000).toISOString() }));
    expect(record.status).to.equal(401);
    expect((await json(record)).error.code).to.equal("CREDENTIAL_EXPIRED");

    const revoke = await owner.call(`/api/dashboard/access/reader-keys/${readerKeyId}`, { method: "DELETE" });
    expect(revoke.status).to.equal(200);
    expect((await json(revoke)).data.state).to.equal("revoked");
    await expectResult(await read(dppPath, readerKey), 401, "READER_KEY_INVALID");
  });

  it("lets the brand restrict an element further, never one the law requires public", async () => {
    const legal = await owner.call("/api/dashboard/access/overrides", { method: "PUT", json: { overrides: { "textile.substances_of_concern": "authority" } } });
    expect(legal.status).to.equal(422);
    const legalBody = await json(legal);
    expect(legalBody.error.code).to.equal("ACCESS_LEGAL_MINIMUM");
    expect(legalBody.error.details.map((d: any) => d.field)).to.deep.equal(["overrides.textile.substances_of_concern"]);
    // Restricting the whole textile section would hide its substances of concern: refused, naming them.
    const section = await json(await owner.call("/api/dashboard/access/overrides", { method: "PUT", json: { overrides: { textile: "legitimate-interest" } } }));
    expect(section.error.code).to.equal("ACCESS_LEGAL_MINIMUM");
    expect(section.error.details.map((d: any) => d.field)).to.deep.equal(["overrides.textile.substances_of_concern"]);
    const lower = await json(await owner.call("/api/dashboard/access/overrides", { method: "PUT", json: { overrides: { "textile.stages.*.facility.name": "legitimate-interest", nonsense: "authority" } } }));
    expect(lower.error.code).to.equal("VALIDATION_ERROR");
    expect(lower.error.details.map((d: any) => d.field)).to.have.members(["overrides.textile.stages.*.facility.name", "overrides.nonsense"]);

    const set = await owner.call("/api/dashboard/access/overrides", { method: "PUT", json: { overrides: { "textile.durability": "authority" } } });
    expect(set.status, await set.clone().text()).to.equal(200);
    const durability = (await json(set)).data.elements.find((e: any) => e.element === "textile.durability");
    expect(durability).to.include({ default_class: "public", class: "authority", restricted_by_brand: "authority" });

    // A legitimate-interest reader no longer sees durability; an authority does.
    const li = await json(await read(dppPath, await credential({})));
    expect(li.access).to.deep.equal({ class: "legitimate-interest", withheld: [WITHHELD_BY_DEFAULT[0]] });
    expect(li[SPEC].textile.stages[0].facility.name).to.equal("Gujarat Spinning Mills");
    expectedLog.push({ operation: "ReadDPPById", reader_kind: "credential", reader_class: "legitimate-interest", elements: WITHHELD_BY_DEFAULT.slice(1) });
    await expectResult(await read(`${dppPath}/elements/textile.durability`, await credential({})), 403, "ACCESS_CLASS_REQUIRED");
    await expectResult(await read(`${dppPath}/versions/1/content`, await credential({})), 403, "ACCESS_CLASS_REQUIRED");

    const authority = await json(await read(dppPath, authorityKey));
    expect(authority.access).to.deep.equal({ class: "authority", withheld: [] });
    expect(authority[SPEC].textile.durability).to.deep.equal(DURABILITY);
    expectedLog.push({ operation: "ReadDPPById", reader_kind: "authority_key", reader_class: "authority", elements: WITHHELD_BY_DEFAULT });
    const record = await json(await read(`/api/dpp/${dpp[SPEC].uid}`, authorityKey));
    expect(record.content.textile.durability).to.deep.equal(DURABILITY);
    expectedLog.push({ operation: "PublicRecord", reader_kind: "authority_key", reader_class: "authority", elements: WITHHELD_BY_DEFAULT });
  });

  it("serves the brand its own passports whole on its API key, unlogged", async () => {
    const own = await json(await read(dppPath, brand.key));
    expect(own.access).to.deep.equal({ class: "authority", withheld: [] });
    const foreign = await json(await read(dppPath, other.key));
    expect(foreign.access.class).to.equal("public");
  });

  /** Words of this passport only readers above the public see: two facilities' names, an identifier, a durability result. */
  const RESTRICTED = ["Gujarat Spinning Mills", "Ashulia Apparel", "IN2021123AB12CD", "ISO 12945-2"];

  /** The text of a passport's certificate PDF, as anyone downloads it. */
  async function pdfText(uid: string): Promise<string> {
    const pdf = await fetch(`${base}/certificates/${uid}.pdf`);
    expect(pdf.status).to.equal(200);
    const dir = mkdtempSync(path.join(os.tmpdir(), "access-pdf-"));
    try {
      const file = path.join(dir, "certificate.pdf");
      writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
      return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("shows the pages and the certificate PDF the public's elements only, whoever asks, saying authorised readers see more", async function () {
    this.timeout(60_000);
    const uid = dpp[SPEC].uid;
    const pages: Array<[string, string | undefined, string]> = [
      [`/scan/${uid}?lang=en`, undefined, "Some supply-chain and test details are available to authorised readers only."],
      [`/scan/${uid}?lang=bn`, undefined, "সরবরাহ শৃঙ্খল ও পরীক্ষার কিছু তথ্য কেবল অনুমোদিত পাঠকদের জন্য।"],
      // The passport's own address opened by a browser: the page is the public's even for an authority (and unlogged).
      [`/api/dpp/${uid}?lang=en`, authorityKey, "available to authorised readers only"],
    ];
    for (const [address, token, notice] of pages) {
      const res = await fetch(`${base}${address}`, { headers: { Accept: "text/html", ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
      expect(res.status, address).to.equal(200);
      const page = await res.text();
      expect(page, address).to.include('class="card made-where"').and.include(notice);
      for (const text of RESTRICTED) expect(page, `${address}: ${text}`).to.not.include(text);
    }

    // A brand that restricts more than the defaults (its carbon figure here): the page leaves that card out, and still renders.
    const restrict = (overrides: Record<string, string>) => owner.call("/api/dashboard/access/overrides", { method: "PUT", json: { overrides } });
    expect((await restrict({ "textile.durability": "authority", carbon: "legitimate-interest" })).status).to.equal(200);
    try {
      const restricted = await fetch(`${base}/scan/${uid}?lang=en`);
      expect(restricted.status).to.equal(200);
      const page = await restricted.text();
      expect(page).to.include('class="card made-where"').and.include("authorised readers only").and.not.include("kg CO2e");
      // The PDF too: it is named by what it shows, so the restricted figure is a PDF of its own, never a cached one.
      expect(await pdfText(uid)).to.include("MADE WHERE").and.not.include("kg CO2e");
    } finally {
      expect((await restrict({ "textile.durability": "authority" })).status).to.equal(200);
    }
    expect(await (await fetch(`${base}/scan/${uid}?lang=en`)).text()).to.include("kg CO2e");

    const text = await pdfText(uid);
    expect(text).to.include("MADE WHERE").and.include("India (IN)").and.include("kg CO2e");
    for (const restricted of [...RESTRICTED, "PILLING"]) expect(text, restricted).to.not.include(restricted);
  });

  it("withholds the same elements from the UNTP credential and the Catena-X export, and serves a reader its own, signed for it and logged", async () => {
    const uid = dpp[SPEC].uid;
    const anonymous = await fetch(`${base}/api/dpp/${uid}/credential?format=json`);
    expect(anonymous.status, await anonymous.clone().text()).to.equal(200);
    expect(anonymous.headers.get("vary")).to.match(/Authorization/i);
    expect(anonymous.headers.get("cache-control")).to.match(/^public/);
    const shared = await json(anonymous);
    expect(checkUntpCredential(shared).errors).to.deep.equal([]);
    for (const text of RESTRICTED) expect(JSON.stringify(shared), text).to.not.include(text);
    const note = shared.credentialSubject.product.furtherInformation.find((link: any) => link.linkType.endsWith("#WithheldElements"));
    expect(note.linkName).to.include(WITHHELD_BY_DEFAULT.join(", "));

    // A role credential reads the facilities' names (legitimate interest), not durability (restricted to authorities
    // above); its credential is signed for it by the service's key and never shared.
    const li = await fetch(`${base}/api/dpp/${uid}/credential`, { headers: { Authorization: `Bearer ${await credential({})}` } });
    expect(li.status, await li.clone().text()).to.equal(200);
    expect(li.headers.get("cache-control")).to.equal("private, no-store");
    const jwt = await li.text();
    const did = await json(await fetch(`${base}/.well-known/did.json`));
    const { alg } = decodeProtectedHeader(jwt);
    const { payload } = await compactVerify(jwt, await importJWK(did.verificationMethod[0].publicKeyJwk, alg));
    const signed = JSON.parse(new TextDecoder().decode(payload));
    expect(checkUntpCredential(signed).errors).to.deep.equal([]);
    const stages = signed.credentialSubject.traceabilityInformation.filter((entry: any) => entry.processingStage);
    expect(stages.map((stage: any) => stage.processingFacility.name)).to.deep.equal(["Gujarat Spinning Mills", "Ashulia Apparel"]);
    expect(signed.credentialSubject.product.characteristics?.durability).to.equal(undefined);
    expectedLog.push({ operation: "Credential", reader_kind: "credential", reader_class: "legitimate-interest", elements: WITHHELD_BY_DEFAULT.slice(1) });

    // An authority asking the passport's page address for the credential (content negotiation) reads all of it.
    const whole = await json(await fetch(`${base}/scan/${uid}`, { headers: { Accept: "application/ld+json", Authorization: `Bearer ${authorityKey}` } }));
    expect(whole.credentialSubject.product.characteristics.durability[0]).to.include({ testStandard: "ISO 12945-2" });
    expect(JSON.stringify(whole)).to.not.include("#WithheldElements");
    expectedLog.push({ operation: "Credential", reader_kind: "authority_key", reader_class: "authority", elements: WITHHELD_BY_DEFAULT });
    // The public's credential after them is still the public's: the one-second cache holds no reader's.
    expect(JSON.stringify(await json(await fetch(`${base}/api/dpp/${uid}/credential?format=json`)))).to.not.include("Gujarat Spinning Mills");

    // Catena-X: withheld leaves are absent (not placeholders), listed in additionalData.
    const exported = await json(await fetch(`${base}/api/dpp/${uid}/catena-x`));
    expect(checkCatenaXPassport(exported).errors).to.deep.equal([]);
    const additional = Object.fromEntries(exported.additionalData.map((entry: any) => [entry.label, entry]));
    expect(additional.withheldElements.children.map((child: any) => child.label)).to.deep.equal(WITHHELD_BY_DEFAULT);
    expect(additional.processingStages.children[0].children.map((child: any) => child.label)).to.not.include("facilityName").and.not.include("facilityId");
    for (const text of RESTRICTED) expect(JSON.stringify(exported), text).to.not.include(text);
    const authority = await fetch(`${base}/api/dpp/${uid}/catena-x`, { headers: { Authorization: `Bearer ${authorityKey}` } });
    expect(authority.headers.get("cache-control")).to.equal("private, no-store");
    const full = await json(authority);
    expect(checkCatenaXPassport(full).errors).to.deep.equal([]);
    for (const text of RESTRICTED) expect(JSON.stringify(full), text).to.include(text);
    expect(full.additionalData.map((entry: any) => entry.label)).to.not.include("withheldElements");
    expectedLog.push({ operation: "CatenaXExport", reader_kind: "authority_key", reader_class: "authority", elements: WITHHELD_BY_DEFAULT });
    // A failing credential is refused here as on every read path.
    expect((await fetch(`${base}/api/dpp/${uid}/catena-x`, { headers: { Authorization: `Bearer pr_reader_${"A".repeat(43)}` } })).status).to.equal(401);
  });

  it("prints a verification script that says a public reader cannot recompute the hash, and finds it authentic with a reader who sees every element", async function () {
    this.timeout(120_000);
    const page = await (await fetch(`${base}/dpp-certificate/${dpp[SPEC].uid}`)).text();
    expect(page).to.include("READER_KEY");
    expect(await runPrintedVerifyScript(page, stack.chain.rpcUrl)).to.equal("MISMATCH");
    expect(await runPrintedVerifyScript(page, stack.chain.rpcUrl, { READER_KEY: authorityKey })).to.equal("authentic");
    expectedLog.push({ operation: "PublicRecord", reader_kind: "authority_key", reader_class: "authority", elements: WITHHELD_BY_DEFAULT });
  });

  it("logs every non-public read for the brand, in its dashboard, and nothing for public reads", async () => {
    const res = await owner.call("/api/dashboard/access/log?per_page=100");
    expect(res.status).to.equal(200);
    const body = await json(res);
    const entries = [...body.data].reverse();
    expect(entries.map((e: any) => ({ operation: e.operation, reader_kind: e.reader_kind, reader_class: e.reader_class, elements: e.elements }))).to.deep.equal(expectedLog);
    expect(body.meta).to.deep.equal({ page: 1, per_page: 100, total: expectedLog.length });
    for (const entry of entries) expect(entry).to.include({ uid: dpp[SPEC].uid, dpp_id: dpp.digitalProductPassportId });
    expect(entries[0]).to.include({ reader_id: String(readerKeyId), reader_label: "Dhaka Repair Co.", reader_type: "repairer" });
    expect(entries[4]).to.include({ reader_id: ISSUER, reader_label: "did:web:recycler-one.test", reader_type: "recycler" });
    expect(entries.at(-1)).to.include({ reader_id: String(authorityKeyId), reader_label: "Market surveillance (test)", reader_type: null });
    const page2 = await json(await owner.call("/api/dashboard/access/log?per_page=2&page=2"));
    expect(page2.data.map((e: any) => e.id)).to.deep.equal(body.data.slice(2, 4).map((e: any) => e.id));
    // The other brand saw no reads above the public (its reader key read this brand's passport as the public).
    const otherOwner = await dashboardClient(base, stack.api.db, other.id, "owner");
    expect((await json(await otherOwner.call("/api/dashboard/access/log"))).data).to.deep.equal([]);
  });
  it("refuses role credentials whose validity is no time or whose narrower window has ended, and reads an operator's session token as the public", async () => {
    // A validity a Date cannot hold is refused (it was a 500), and where both VC 2.0's and JWT's validity are given the narrower counts.
    await expectResult(await read(dppPath, await credential({ nbf: 1e13 })), 401, "CREDENTIAL_INVALID");
    await expectResult(await read(dppPath, await credential({ validUntil: "soon" })), 401, "CREDENTIAL_INVALID");
    await expectResult(await read(dppPath, await credential({ exp: Math.floor(Date.now() / 1000) - 60 })), 401, "CREDENTIAL_EXPIRED");
    // POST /api/login's token sent along to a public read is not a reader credential: the read stays public.
    const asOperator = await read(dppPath, `prs_${"A".repeat(43)}`);
    expect(asOperator.status, await asOperator.clone().text()).to.equal(200);
    expect((await json(asOperator)).access).to.deep.equal({ class: "public", withheld: WITHHELD_BY_DEFAULT });
  });

  it("knows only its own elements: Object's members are neither classes nor overrides", async () => {
    const res = await owner.call("/api/dashboard/access/overrides", { method: "PUT", json: { overrides: { constructor: "authority", toString: "legitimate-interest" } } });
    expect(res.status).to.equal(422);
    expect((await json(res)).error.details.map((d: any) => d.field)).to.have.members(["overrides.constructor", "overrides.toString"]);
    const element = await read(`${dppPath}/elements/constructor`, brand.key);
    expect(element.status, await element.clone().text()).to.equal(404);
  });

  it("drops a withheld field of the maker from the record's manufacturer too, not only from its content", () => {
    const record = {
      uid: "ACB-1",
      content: { manufacturer: { factory_id: 1001, name: "Ashulia Apparel", country: "BD" } } as any,
      manufacturer: { factory_id: 1001, name: "Ashulia Apparel", country: "BD", verified: true },
    };
    const visible = visibleRecord(record, { content: { manufacturer: { factory_id: 1001, country: "BD" } } as any, access: { class: "public", withheld: ["manufacturer.name"] } });
    expect(visible.manufacturer).to.deep.equal({ factory_id: 1001, country: "BD", verified: true });
    const whole = visibleRecord(record, { content: {} as any, access: { class: "public", withheld: ["manufacturer"] } });
    expect(whole).to.not.have.property("manufacturer");
  });
});
