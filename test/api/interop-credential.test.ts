// The UNTP credential (VC 2.0, VC-JOSE, did:web) and the Catena-X export of the demo passports on the shared stack:
// each credential validates against the vendored UNTP 0.6.0 schema, expands offline without dropping a term with
// only the W3C, UNTP and pinned extension contexts, and verifies with the key of /.well-known/did.json; the pinned
// context is served as committed and never changes; content negotiation on the passport URL; the Catena-X document
// validates against the vendored 7.0.0 schema.
import { buildAppDeps } from "../../api/src/assemble";
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect } from "chai";
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from "jose";
import jsonld from "jsonld";
import { loadConfig } from "../../api/src/config";
import type { AppDeps } from "../../api/src/deps";
import { buildCatenaXPassport } from "../../api/src/interop/catena-x";
import { fromDraft04 } from "../../api/src/interop/catena-x-schema";
import { buildCredential, credentialInput, passportCredential } from "../../api/src/interop/credential";
import { offlineDocumentLoader, vendoredJson } from "../../api/src/interop/contexts";
import { checkCatenaXPassport, checkUntpCredential } from "../support/schemas";
import { didWebOf } from "../../api/src/interop/signing-key";
import { createLogger } from "../../api/src/logger";
import { CERTIFICATION_CODES } from "../../api/src/generated/contract-constants";
import { loadFactories } from "../../scripts/lib/seed";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";
import { createBrand } from "../../api/src/brands/service";
import { fullElements, type DataElement } from "../../api/src/dpp/elements";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type DidDocument = { id: string; verificationMethod: Array<{ id: string; publicKeyJwk: JWK }>; assertionMethod: string[] };

/**
 * The extension context's one URL, written out here rather than imported: it is what verifiers pin, so changing it in
 * the code must fail this test. The digest is that of the file as published; a published version never changes.
 */
const PINNED_CONTEXT_URL = "https://w3id.org/passport-registry/contexts/v3.jsonld";
const PINNED_CONTEXT_FILE = "v3.jsonld";
const PUBLISHED_CONTEXTS = [
  { url: "https://w3id.org/passport-registry/contexts/v1.jsonld", file: "v1.jsonld", sha256: "6c9da1a31c29ab823d0c8ae0426d7dc317ab0d3384523e16edf80d7a766804fc" },
  { url: "https://w3id.org/passport-registry/contexts/v2.jsonld", file: "v2.jsonld", sha256: "7c1d803b327b195bcc97c0197b8ad71707049e91f512b50b460077bbf92b2569" },
  { url: PINNED_CONTEXT_URL, file: PINNED_CONTEXT_FILE, sha256: "1868fb30ee92537c44e804b780998f7b059e484f07a5842a2e3300ee740acbaf" },
];
const VC_V2 = "https://www.w3.org/ns/credentials/v2";
const UNTP_DPP_060 = "https://test.uncefact.org/vocabulary/untp/dpp/0.6.0/";
const INTEROP_DIR = path.join(__dirname, "..", "..", "api", "src", "interop");
const committedContext = (file: string) => readFileSync(path.join(INTEROP_DIR, "registry-context", file));

/** A verifier's loader: the W3C VC 2.0 and UNTP DPP 0.6.0 contexts (vendored copies) and, if `pinned`, ours; nothing else. */
function verifierLoader({ pinned }: { pinned: boolean }) {
  const documents = new Map<string, Buffer>([
    [VC_V2, readFileSync(path.join(INTEROP_DIR, "vocab", "credentials-v2.jsonld"))],
    [UNTP_DPP_060, readFileSync(path.join(INTEROP_DIR, "vocab", "untp-dpp-0.6.0-context.jsonld"))],
    ...(pinned ? [[PINNED_CONTEXT_URL, committedContext(PINNED_CONTEXT_FILE)] as const] : []),
  ]);
  return async (url: string) => {
    const bytes = documents.get(url);
    if (!bytes) throw new Error(`the verifier does not hold ${url}`);
    return { contextUrl: null, document: JSON.parse(bytes.toString("utf8")) as unknown, documentUrl: url };
  };
}

/** The terms jsonld.expand drops from `document` (not in safe mode: each drop is reported as an event instead). */
async function droppedTerms(document: unknown, loader: ReturnType<typeof verifierLoader>): Promise<string[]> {
  const dropped = new Set<string>();
  const eventHandler = ({ event, next }: { event: { code: string; details?: { property?: string } }; next: () => void }) => {
    if (event.code === "invalid property" && event.details?.property) dropped.add(event.details.property);
    else next();
  };
  await jsonld.expand(document as never, { documentLoader: loader, eventHandler } as never);
  return [...dropped].sort();
}

/** jsonld.expand in safe mode with the verifier's loader: a term the contexts do not define throws instead of being dropped silently. */
async function expandSafely(document: unknown): Promise<unknown[]> {
  try {
    return (await jsonld.expand(document as never, { documentLoader: verifierLoader({ pinned: true }), safe: true } as never)) as unknown as unknown[];
  } catch (error) {
    // jsonld names the dropped term in `details`, not in the message.
    throw new Error(`${String(error)} ${JSON.stringify((error as { details?: unknown }).details)}`);
  }
}

/** Verifies a compact JWS with the key of a DID document its `kid` names. */
async function verifyWith(did: DidDocument, jwt: string) {
  const { kid } = decodeProtectedHeader(jwt);
  const method = did.verificationMethod.find((candidate) => candidate.id === kid);
  if (!method) throw new Error(`no verification method ${String(kid)}`);
  const alg = method.publicKeyJwk.kty === "OKP" ? "EdDSA" : "ES256";
  return compactVerify(jwt, await importJWK(method.publicKeyJwk, alg), { algorithms: [alg] });
}

/** The JWS with one character of its payload or signature segment changed. */
function tampered(jwt: string, segment: 1 | 2): string {
  const parts = jwt.split(".");
  const text = parts[segment]!;
  const at = Math.floor(text.length / 2);
  parts[segment] = text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
  return parts.join(".");
}

describe("UNTP credential, did:web and Catena-X export (issue 16)", function () {
  this.timeout(180_000);
  let stack: SeededStack;
  let base: string;
  let did: DidDocument;
  let minted: SeededStack["demo"]["products"];
  let unminted: string;

  before(async () => {
    stack = await sharedStack();
    base = stack.api.url;
    minted = stack.demo.products.filter((product) => product.minted);
    unminted = stack.demo.products.find((product) => !product.minted)!.uid;
    const res = await fetch(`${base}/.well-known/did.json`);
    expect(res.status).to.equal(200);
    did = (await res.json()) as DidDocument;
    expect(minted.some((product) => product.gtin) && minted.some((product) => !product.gtin), "demo passports with and without a GTIN").to.equal(true);
  });

  /** `token`: read as that reader (docs/access.md); the brand's own key reads its passports whole. */
  const credentialJson = async (uid: string, token?: string): Promise<Json> => {
    const res = await fetch(`${base}/api/dpp/${uid}/credential`, { headers: { Accept: "application/ld+json", ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
    expect(res.status, uid).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/^application\/ld\+json/);
    return (await res.json()) as Json;
  };

  describe("the vendored schemas and contexts", () => {
    it("accept UNTP's and Catena-X's own examples and refuse them with a required block removed", async () => {
      const sample = vendoredJson("untp-dpp-0.6.0-instance.json") as Json;
      expect(checkUntpCredential(sample).errors).to.deep.equal([]);
      const { issuer: _issuer, ...noIssuer } = sample;
      expect(checkUntpCredential(noIssuer).valid).to.equal(false);
      expect((await expandSafely(sample)).length).to.equal(1);

      const example = vendoredJson("catenax-dpp-7.0.0-example.json") as Json;
      expect(checkCatenaXPassport(example).errors).to.deep.equal([]);
      const { composition: _composition, ...noComposition } = example;
      expect(checkCatenaXPassport(noComposition).valid).to.equal(false);
    });

    it("translates draft-04 exclusive bounds faithfully", () => {
      const schema = fromDraft04({ $schema: "http://json-schema.org/draft-04/schema", type: "number", minimum: 0, exclusiveMinimum: true, maximum: 100, exclusiveMaximum: false });
      expect(schema).to.deep.equal({ type: "number", exclusiveMinimum: 0, maximum: 100 });
    });

    it("loads only vendored contexts: any other URL throws, and a term no context defines fails expansion", async () => {
      const loader = offlineDocumentLoader();
      for (const url of [VC_V2, UNTP_DPP_060, PINNED_CONTEXT_URL]) expect((await loader(url)).documentUrl).to.equal(url);
      for (const url of ["https://schema.org/", "https://www.w3.org/2018/credentials/v1", `${base}/contexts/passport-registry/v1.jsonld`]) {
        let failed = false;
        await loader(url).catch(() => (failed = true));
        expect(failed, url).to.equal(true);
      }
      const credential = await credentialJson(minted[0]!.uid);
      let error: unknown;
      await expandSafely({ ...credential, credentialSubject: { ...credential.credentialSubject, undefinedTerm: "x" } }).catch((e: unknown) => (error = e));
      expect(String(error)).to.match(/safe mode|dropped|undefined/i);
    });
  });

  describe("the pinned extension context", () => {
    it("is served at its URL's path, byte for byte the committed file, and every published file is as published", async () => {
      for (const { url, file, sha256 } of PUBLISHED_CONTEXTS) {
        const committed = committedContext(file);
        // Editing a published version (rather than adding a new one) fails here.
        expect(createHash("sha256").update(committed).digest("hex"), `${file} was published with another digest`).to.equal(sha256);
        const res = await fetch(`${base}${new URL(url).pathname}`);
        expect(res.status, url).to.equal(200);
        expect(res.headers.get("content-type")).to.match(/^application\/ld\+json/);
        expect(res.headers.get("cache-control")).to.include("immutable");
        expect(Buffer.from(await res.arrayBuffer()).equals(committed), `${url} served as committed`).to.equal(true);
      }
    });

    it("keeps answering the per-deployment context that credentials named before, unchanged", async () => {
      const res = await fetch(`${base}/contexts/passport-registry/v1.jsonld`);
      expect(res.status).to.equal(200);
      const context = ((await res.json()) as Json)["@context"];
      expect(context.pr).to.equal(`${base}/contexts/passport-registry/v1.jsonld#`);
      expect(Object.keys(context)).to.deep.equal(Object.keys(JSON.parse(committedContext("v1.jsonld").toString("utf8"))["@context"]));
    });
  });

  describe("GET /api/dpp/{uid}/credential", () => {
    it("gives every demo passport a credential valid against UNTP 0.6.0 that a verifier holding the W3C, UNTP and pinned contexts expands in safe mode", async () => {
      for (const product of minted) {
        const credential = await credentialJson(product.uid);
        const check = checkUntpCredential(credential);
        expect(check.errors, product.uid).to.deep.equal([]);
        expect(credential["@context"], product.uid).to.deep.equal([VC_V2, UNTP_DPP_060, PINNED_CONTEXT_URL]);
        expect(await droppedTerms(credential, verifierLoader({ pinned: true })), product.uid).to.deep.equal([]);
        // Without ours, the terms only it defines are what a verifier loses: the pinned context is what keeps them.
        const { "@context": _context, ...rest } = credential;
        const lost = await droppedTerms({ "@context": [VC_V2, UNTP_DPP_060], ...rest }, verifierLoader({ pinned: false }));
        const ours = Object.keys(JSON.parse(committedContext(PINNED_CONTEXT_FILE).toString("utf8"))["@context"]);
        expect(lost.length, product.uid).to.be.greaterThan(0);
        expect(lost.filter((term) => !ours.includes(term)), product.uid).to.deep.equal([]);
        const expanded = (await expandSafely(credential)) as Json[];
        expect(expanded).to.have.length(1);
        // Every top-level member survives as a term of the expanded node (safe mode has thrown otherwise).
        expect(Object.keys(expanded[0]!).length).to.equal(Object.keys(credential).length - 1);
      }
    });

    it("says what the passport record says: product, issuer, claims, emissions, traceability, materials and the chain anchor", async () => {
      for (const product of minted) {
        const credential = await credentialJson(product.uid);
        const record = (await (await fetch(`${base}/api/dpp/${product.uid}`)).json()) as Json;
        const subject = credential.credentialSubject;
        expect(credential.type).to.deep.equal(["VerifiableCredential", "DigitalProductPassport"]);
        expect(credential.id).to.equal(`${base}/api/dpp/${product.uid}/credential`);
        expect(credential.issuer.id).to.equal(did.id).and.to.equal(didWebOf(base));
        if (product.gtin) expect(subject.product.id).to.match(new RegExp(`^${base}/01/${product.gtin}(/10/[^/]+)?/21/${product.serial}$`));
        else expect(subject.product.id).to.equal(record.links.scan_url);
        expect(subject.product.name).to.equal(record.content.product.name);
        expect(subject.product.producedByParty.name).to.equal(record.content.brand.name);
        expect(subject.product.producedAtFacility.name).to.equal(record.content.manufacturer.name);
        const textile = record.content.textile as Json | undefined;
        expect(subject.emissionsScorecard.carbonFootprint).to.equal(textile?.carbon?.method === "estimate" ? textile.carbon.kg_co2e : record.content.carbon.kg_co2e);
        expect(subject.emissionsScorecard).to.include({ operationalScope: "CradleToGate", carbonFootprintMethod: "estimate" });
        // The fibres: the textile section's materials where it lists them, else the fibre composition.
        const fibres = textile?.materials
          ? (textile.materials as Json[]).map((m) => [m.fibre, m.mass_percent / 100])
          : record.content.fiber_composition.map((share: Json) => [share.fiber, share.percent / 100]);
        expect(subject.materialsProvenance.slice(0, fibres.length).map((m: Json) => [m.name, m.massFraction])).to.deep.equal(fibres);
        const chainSteps = subject.traceabilityInformation.filter((t: Json) => t.processingStage === undefined);
        expect(chainSteps.map((t: Json) => t.transactionHash)).to.deep.equal(record.supply_chain_events.map((e: Json) => e.tx_hash));
        // The maker's certifications as the seed registered them on chain, in the registry's bit order.
        const factory = loadFactories().find((candidate) => candidate.factory_id === record.content.manufacturer.factory_id)!;
        const codes = CERTIFICATION_CODES.filter((code) => factory.certifications.includes(code));
        expect(subject.conformityClaim.map((claim: Json) => claim.id.split("#factory-certification-")[1])).to.deep.equal(codes);
        expect(subject.chainAnchor).to.include({
          chainId: record.blockchain.chain_id,
          contractAddress: record.blockchain.contract,
          tokenId: record.blockchain.token_id,
          dataHash: record.blockchain.data_hash,
          transactionHash: record.blockchain.tx_hash,
        });
        expect(subject.chainAnchor.dataHash).to.equal(record.blockchain.computed_data_hash);
      }
    });

    it("signs it as VC-JOSE with the key of /.well-known/did.json; one changed byte fails verification", async () => {
      expect(did.id).to.equal(didWebOf(base));
      expect(did.assertionMethod).to.deep.equal([did.verificationMethod[0]!.id]);
      for (const product of minted) {
        const res = await fetch(`${base}/api/dpp/${product.uid}/credential`);
        expect(res.status).to.equal(200);
        expect(res.headers.get("content-type")).to.equal("application/vc+jwt");
        expect(res.headers.get("vary")).to.match(/accept/i);
        const jwt = await res.text();
        const header = decodeProtectedHeader(jwt);
        expect(header).to.include({ typ: "vc+jwt", cty: "vc", alg: "EdDSA" });
        expect(header.kid).to.equal(did.verificationMethod[0]!.id).and.to.match(new RegExp(`^${did.id}#`));
        const { payload } = await verifyWith(did, jwt);
        expect(JSON.parse(new TextDecoder().decode(payload))).to.deep.equal(await credentialJson(product.uid));
        for (const segment of [1, 2] as const) {
          let failed = false;
          await verifyWith(did, tampered(jwt, segment)).catch(() => (failed = true));
          expect(failed, `segment ${segment} changed`).to.equal(true);
        }
      }
    });

    it("answers 404 for an unminted or unknown passport and 422 for a malformed UID, as JSON", async () => {
      for (const [uid, status] of [[unminted, 404], ["DEMO-ZZZZZZZZ", 404], ["not_a_uid", 422]] as const) {
        for (const path of ["credential", "catena-x"]) {
          const res = await fetch(`${base}/api/dpp/${uid}/${path}`);
          expect(res.status, `${uid} ${path}`).to.equal(status);
          expect(((await res.json()) as Json).error.code).to.equal(status === 404 ? "NOT_FOUND" : "VALIDATION_ERROR");
        }
      }
    });
  });

  describe("content negotiation on the passport URL", () => {
    it("answers the credential to a client preferring it to HTML, and the page to a browser", async () => {
      const uid = minted[0]!.uid;
      for (const path of [`/scan/${uid}`, `/dpp-certificate/${uid}`]) {
        const asked = async (accept: string) => {
          const res = await fetch(`${base}${path}`, { headers: { Accept: accept } });
          expect(res.headers.get("vary"), `${path} ${accept}`).to.match(/accept/i);
          return { status: res.status, type: res.headers.get("content-type") ?? "", body: await res.text() };
        };
        const jwt = await asked("application/vc+jwt");
        expect(jwt.type).to.equal("application/vc+jwt");
        expect((await verifyWith(did, jwt.body)).protectedHeader.typ).to.equal("vc+jwt");
        expect((await asked("application/ld+json")).type).to.match(/^application\/ld\+json/);
        expect(JSON.parse((await asked("application/vc")).body).id).to.equal(`${base}/api/dpp/${uid}/credential`);
        expect((await asked("text/html;q=0.5, application/vc+jwt")).type).to.equal("application/vc+jwt");
        for (const browser of ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "*/*", "text/html, application/vc+jwt;q=0.5"]) {
          const page = await asked(browser);
          expect(page.status, browser).to.equal(200);
          expect(page.type, browser).to.match(/^text\/html/);
        }
      }
      const missing = await fetch(`${base}/scan/${unminted}`, { headers: { Accept: "application/vc+jwt" } });
      expect(missing.status).to.equal(404);
      expect(((await missing.json()) as Json).error.code).to.equal("NOT_FOUND");
    });

    it("serves a brand's passports' credentials on the brand's own host", async () => {
      const url = new URL(`${base}/api/dpp/${minted[0]!.uid}/credential`);
      // fetch cannot set Host: a plain request does.
      const answer = await new Promise<{ status: number; type: string }>((resolve, reject) => {
        const request = http.get({ host: url.hostname, port: url.port, path: url.pathname, headers: { Host: `${stack.demo.subdomain_host}:${url.port}` } }, (response) => {
          response.resume();
          resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"] ?? "" });
        });
        request.on("error", reject);
      });
      expect(answer).to.deep.equal({ status: 200, type: "application/vc+jwt" });
    });
  });

  describe("GET /api/dpp/{uid}/catena-x", () => {
    it("gives every demo passport a Catena-X DPP 7.0.0 document valid against the vendored schema, placeholders listed", async () => {
      for (const product of minted) {
        const res = await fetch(`${base}/api/dpp/${product.uid}/catena-x`);
        expect(res.status).to.equal(200);
        const document = (await res.json()) as Json;
        expect(checkCatenaXPassport(document).errors, product.uid).to.deep.equal([]);
        const record = (await (await fetch(`${base}/api/dpp/${product.uid}`)).json()) as Json;
        expect(document.metadata.specVersion).to.equal("urn:io.catenax.generic.digital_product_passport:7.0.0");
        expect(document.identification.partTypeInformation.nameAtManufacturer).to.equal(record.content.product.name);
        const textile = record.content.textile as Json | undefined;
        expect(document.sustainability.productFootprint.carbon[0].value).to.equal(textile?.carbon?.method === "estimate" ? textile.carbon.kg_co2e : record.content.carbon.kg_co2e);
        const additional = Object.fromEntries((document.additionalData as Json[]).map((entry) => [entry.label, entry]));
        const anchor = Object.fromEntries((additional.chainAnchor.children as Json[]).map((child) => [child.label, child.data]));
        expect(anchor.dataHash).to.equal(record.blockchain.data_hash);
        // Every placeholder names a value that is there (so the list cannot drift from the document).
        const pointers = (additional.placeholders.children as Json[]).map((child) => child.label as string);
        expect(pointers).to.include("/metadata/expirationDate");
        for (const pointer of pointers) {
          const value = pointer.split("/").slice(1).reduce<unknown>((node, key) => (node as Json | undefined)?.[key], document);
          expect(value, pointer).to.not.equal(undefined);
        }
      }
    });
  });

  describe("the signing key", () => {
    it("names the service by did:web of its public address", () => {
      expect(didWebOf("http://127.0.0.1:3000")).to.equal("did:web:127.0.0.1%3A3000");
      expect(didWebOf("https://passports.example.com")).to.equal("did:web:passports.example.com");
      expect(didWebOf("https://example.com/registry")).to.equal("did:web:example.com:registry");
    });

    it("signs with a key given in the configuration, and refuses a malformed one without echoing it", async () => {
      const jwk = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
      const config = loadConfig({ ...envOf(stack), CREDENTIAL_SIGNING_KEY: JSON.stringify(jwk) });
      const deps: AppDeps = buildAppDeps({ config, db: stack.api.db, provider: undefined as never, chain: stack.api.chain, logger: createLogger("silent") });
      const { credential, jwt } = await passportCredential(deps, minted[0]!.uid);
      const publicJwk = { kty: "OKP", crv: "Ed25519", x: jwk.x } as JWK;
      const { payload } = await compactVerify(jwt, await importJWK(publicJwk, "EdDSA"));
      expect(JSON.parse(new TextDecoder().decode(payload))).to.deep.equal(credential);
      // The same inputs build the same document (Ed25519 signatures are deterministic, so the JWT is stable too).
      expect((await passportCredential(deps, minted[0]!.uid)).jwt).to.equal(jwt);
      expect(buildCatenaXPassport(config, await credentialInput(deps, minted[0]!.uid)).metadata).to.have.property("passportIdentifier");

      // A P-256 key signs ES256.
      const p256 = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
      const es256 = { ...deps, config: loadConfig({ ...envOf(stack), CREDENTIAL_SIGNING_KEY: JSON.stringify(p256) }) };
      const signed = (await passportCredential(es256, minted[0]!.uid)).jwt;
      expect(decodeProtectedHeader(signed).alg).to.equal("ES256");
      await compactVerify(signed, await importJWK({ kty: "EC", crv: "P-256", x: p256.x, y: p256.y }, "ES256"));

      let problem = "";
      try {
        loadConfig({ ...envOf(stack), CREDENTIAL_SIGNING_KEY: '{"kty":"RSA","d":"secret-value"}' });
      } catch (error) {
        problem = String(error);
      }
      expect(problem).to.include("CREDENTIAL_SIGNING_KEY").and.not.include("secret-value");
      // Production must be given its key: no key file is made there.
      problem = "";
      try {
        loadConfig({ ...envOf(stack), SERVICE_MODE: "production" });
      } catch (error) {
        problem = String(error);
      }
      expect(problem).to.include("CREDENTIAL_SIGNING_KEY or CREDENTIAL_SIGNING_KEY_FILE is required in production");
    });
  });

  describe("a passport with a textile section (issue 26)", () => {
    // Its own brand and SKUs on the shared stack; a twin without the section, same fibres, shows what the section adds.
    const FIBRES = [
      { fiber: "cotton", percent: 60 },
      { fiber: "polyester", percent: 40 },
    ];
    const TEXTILE = {
      production_date: "2026-10-01",
      commodity_code: { hs6: "610910", cn8: "61091000" },
      stages: [
        { stage: "fibre", facility: { name: "Izmir Recycled Fibres", country: "TR" } },
        { stage: "spinning", facility: { name: "Gujarat Spinning Mills", country: "IN", id: { scheme: "osh", value: "IN2021123AB12CD" } } },
        { stage: "weaving_knitting", facility: { name: "Gazipur Knit Composite", country: "BD", id: { scheme: "gln", value: "4006381333931" } }, started: "2026-09-01", completed: "2026-09-20" },
        { stage: "dyeing_printing_finishing", facility: { name: "Gazipur Knit Composite", country: "BD" } },
        { stage: "making_up", facility: { name: "Ashulia Apparel", country: "BD", id: { scheme: "registry", value: "1002" } } },
      ],
      materials: [
        { fibre: "cotton", mass_percent: 60, origin_country: "IN", recycled_percent: 0 },
        { fibre: "polyester", mass_percent: 40, origin_country: "TR", recycled_percent: 100, recycled_origin: "post_consumer", certification: { code: "GRS", number: "CU-GRS-8841" } },
      ],
      substances_of_concern: [{ name: "Antimony trioxide", cas: "1309-64-4", ec: "215-175-0", concentration_percent: 0.02, location: "polyester fibre", safe_use: "Bound in the fibre; no exposure in normal use." }],
      durability: [
        { property: "pilling", standard: "ISO 12945-2", result: "grade 4 after 2000 rubs", class: "4" },
        { property: "dimensional_change", standard: "ISO 6330", result: "-2.5 % length" },
      ],
      care: { symbols: ["wash_30", "do_not_bleach", "line_dry", "iron_low"], text: "Wash inside out." },
      repair: { instructions: "Re-stitch open seams with polyester thread.", spare_parts: ["spare buttons"], service_url: "https://repair.example.com/tee" },
      end_of_life: { recyclability: "Fibre-to-fibre recyclable after removing the buttons.", take_back: "Any store takes it back.", take_back_url: "https://takeback.example.com" },
      images: ["https://images.example.com/tee-front.jpg", "https://images.example.com/tee-back.jpg"],
      carbon: { method: "estimate", kg_co2e: 3.1 },
    };
    const MATERIALS = "/composition/materialInformation/materials";
    let textileUid: string;
    let twinUid: string;
    /** The brand's API key: its credential and export read whole (durability and facility names are not public). */
    let brandKey: string;

    before(async function () {
      this.timeout(240_000);
      const created = await createBrand(stack.api.db, { slug: `interop-tx-${randomBytes(3).toString("hex")}`, name: "Interop Textile", uidPrefix: "ITX" });
      brandKey = created.key.key;
      const v1 = (route: string, body: unknown) =>
        fetch(`${base}/api/v1${route}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${created.key.key}`, "X-Service-Brand": created.brand.slug, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      const register = async (sku: string, textile?: unknown) => {
        const res = await v1("/products", { sku, name: "Recycled blend tee", category: "t-shirt", price: 990, fiber_composition: FIBRES, ...(textile ? { textile } : {}) });
        expect(res.status, await res.clone().text()).to.equal(201);
        const uid = ((await res.json()) as Json).data.uid as string;
        expect((await v1("/certs/issue", { uid })).status).to.equal(201);
        return uid;
      };
      textileUid = await register("ITX-1", TEXTILE);
      twinUid = await register("ITX-0");
      await waitForIndexer(stack);
    });

    it("fills the UNTP fields from the section: schema-valid, and safe-mode expansion keeps every term", async () => {
      const credential = await credentialJson(textileUid, brandKey);
      expect(checkUntpCredential(credential).errors).to.deep.equal([]);
      expect(await droppedTerms(credential, verifierLoader({ pinned: true }))).to.deep.equal([]);
      expect(await expandSafely(credential)).to.have.length(1);
      const subject = credential.credentialSubject;
      const { product } = subject;
      expect(product.productionDate).to.equal("2026-10-01");
      expect(product.productCategory.map((c: Json) => [c.code, c.type[0]])).to.deep.equal([["610910", "Classification"], ["61091000", "Classification"]]);
      expect(product.productCategory[0].schemeName).to.match(/Harmonized System/);
      expect(product.productCategory[1].schemeName).to.match(/Combined Nomenclature/);
      expect(product.productImage.linkURL).to.equal(TEXTILE.images[0]);
      expect(product.characteristics.durability[0]).to.deep.equal({ testedProperty: "pilling", testStandard: "ISO 12945-2", testResult: "grade 4 after 2000 rubs", performanceClass: "4" });
      expect(product.characteristics.careSymbols).to.deep.equal(TEXTILE.care.symbols);

      const [cotton, polyester, antimony] = subject.materialsProvenance as Json[];
      expect(cotton).to.include({ name: "cotton", massFraction: 0.6, originCountry: "IN", recycledMassFraction: 0 });
      expect(polyester).to.include({ name: "polyester", massFraction: 0.4, originCountry: "TR", recycledMassFraction: 1, recycledOrigin: "post_consumer" });
      // Which fibre holds the substance is not recorded: no fibre is called hazardous or safe.
      expect(cotton).not.to.have.property("hazardous");
      expect(antimony).to.include({ name: "Antimony trioxide", hazardous: true, casNumber: "1309-64-4", ecNumber: "215-175-0", concentrationPercentage: 0.02 });
      expect(antimony).not.to.have.property("massFraction");
      // Its safety information is the passport's own EN 18222 element, which answers with the safe-use note.
      const element = await fetch(antimony!.materialSafetyInformation.linkURL);
      expect(element.status).to.equal(200);
      expect(await element.text()).to.include(TEXTILE.substances_of_concern[0]!.safe_use);

      expect(subject.circularityScorecard).to.deep.include({
        recycledContent: 0.4,
        repairInformation: { linkURL: TEXTILE.repair.service_url, linkName: "Repair service" },
        recyclingInformation: { linkURL: TEXTILE.end_of_life.take_back_url, linkName: "Take-back service" },
        spareParts: ["spare buttons"],
      });
      expect(subject.emissionsScorecard).to.include({ carbonFootprint: 3.1, carbonFootprintMethod: "estimate", primarySourcedRatio: 0 });
      expect(subject.emissionsScorecard.estimationMethod).to.match(/^Estimated, not measured/);
      expect(subject.conformityClaim.find((claim: Json) => claim.id.endsWith("#material-certification-2")).description).to.include("GRS certificate CU-GRS-8841 for the polyester");
      // Nothing true to point at: no due diligence declaration is made up.
      expect(subject).not.to.have.property("dueDiligenceDeclaration");

      const stages = (subject.traceabilityInformation as Json[]).filter((t) => t.processingStage !== undefined);
      expect(stages.map((t) => [t.valueChainProcess, t.processingFacility.countryOfOperation])).to.deep.equal([
        ["Fibre production", "TR"],
        ["Spinning", "IN"],
        ["Weaving or knitting", "BD"],
        ["Dyeing, printing and finishing", "BD"],
        ["Making-up", "BD"],
      ]);
      expect(stages[2]!.processingFacility).to.deep.include({ id: "https://id.gs1.org/414/4006381333931", registeredId: "4006381333931" });
      expect(stages[2]).to.include({ stageStarted: "2026-09-01", stageCompleted: "2026-09-20", confirmedByFacility: false });
      expect(stages[4]!.processingFacility.id).to.equal(`${base}/api/factory/1002/reputation`);

      // The twin without the section has none of it.
      const twin = (await credentialJson(twinUid)).credentialSubject;
      expect(twin.product).not.to.have.any.keys("productionDate", "productCategory", "productImage", "characteristics");
      expect(twin).not.to.have.property("circularityScorecard");
      expect(twin.materialsProvenance.map((m: Json) => Object.keys(m).sort())).to.deep.equal([["massFraction", "name"], ["massFraction", "name"]]);
    });

    it("fills the Catena-X export from the section, valid, with fewer placeholders and the rest still listed", async () => {
      const exported = async (uid: string, token?: string) => {
        const res = await fetch(`${base}/api/dpp/${uid}/catena-x`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
        expect(res.status).to.equal(200);
        const document = (await res.json()) as Json;
        expect(checkCatenaXPassport(document).errors, uid).to.deep.equal([]);
        const additional = Object.fromEntries((document.additionalData as Json[]).map((entry) => [entry.label, entry]));
        const pointers = (additional.placeholders.children as Json[]).map((child) => child.label as string);
        for (const pointer of pointers) {
          const value = pointer.split("/").slice(1).reduce<unknown>((node, key) => (node as Json | undefined)?.[key], document);
          expect(value, pointer).to.not.equal(undefined);
        }
        return { document, additional, pointers };
      };
      const { document, additional, pointers } = await exported(textileUid, brandKey);
      expect(document.operation.manufacturing.manufacturingDate).to.equal("2026-10-01");
      expect(document.identification.partClassification.map((c: Json) => c.id)).to.include.members(["610910", "61091000"]);
      expect(document.identification.productImages.map((i: Json) => i.content)).to.deep.equal(TEXTILE.images);
      const [cotton, polyester, antimony] = document.composition.materialInformation.materials as Json[];
      expect(cotton).to.include({ recycled: 0, materialOrigin: "IN" });
      expect(polyester).to.include({ recycled: 100, materialOrigin: "TR" });
      expect(antimony!.materialIdentifications).to.deep.equal([
        { materialName: "Antimony trioxide", materialId: "1309-64-4", materialListTypeId: "CAS" },
        { materialName: "Antimony trioxide", materialId: "215-175-0", materialListTypeId: "EC" },
      ]);
      expect(antimony!.substancesOfConcernInformation.content.substanceOfConcernLocations).to.deep.equal(["polyester fibre"]);
      expect(document.sustainability.recycleabilityPerformance).to.deep.equal({ applicable: true, content: TEXTILE.end_of_life.recyclability });
      expect(document.sustainability.productFootprint.carbon[0].value).to.equal(3.1);
      const characteristics = Object.fromEntries((document.characteristics.otherCharacteristics as Json[]).map((c) => [c.otherCharacteristicName, c.otherCharacteristicOutcome]));
      expect(characteristics["durability: pilling (ISO 12945-2)"]).to.equal("grade 4 after 2000 rubs, class 4");
      expect(characteristics["care symbols (ISO 3758)"]).to.equal("wash_30, do_not_bleach, line_dry, iron_low");
      expect(document.sources.map((source: Json) => source.content)).to.include.members([TEXTILE.repair.service_url, TEXTILE.end_of_life.take_back_url]);
      expect((additional.processingStages.children as Json[]).map((stage) => stage.label)).to.deep.equal(TEXTILE.stages.map((stage) => stage.stage));

      // The twin's placeholders the section answers are gone; the ones left are listed, and only the substance (a
      // material of its own) adds any: what is not recorded about it (exemption, CLP class, recycled share...).
      const twin = await exported(twinUid);
      const answered = ["/sustainability/recycleabilityPerformance/applicable", `${MATERIALS}/0/recycled`, `${MATERIALS}/1/recycled`];
      expect(twin.pointers).to.include.members(answered);
      for (const pointer of answered) expect(pointers).not.to.include(pointer);
      const substance = pointers.filter((pointer) => pointer.startsWith(`${MATERIALS}/2/`));
      expect(pointers.filter((pointer) => !substance.includes(pointer)).length).to.equal(twin.pointers.length - answered.length);
      expect(twin.pointers).to.include.members(pointers.filter((pointer) => !substance.includes(pointer)));
      expect(substance.length).to.be.greaterThan(0);
    });

    it("links a stage its facility confirmed to the confirmation's transaction, and says which stages are only declared", async () => {
      const config = loadConfig(envOf(stack));
      const deps: AppDeps = buildAppDeps({ config, db: stack.api.db, provider: undefined as never, chain: stack.api.chain, logger: createLogger("silent") });
      const input = await credentialInput(deps, textileUid);
      // The record as it reads once the making-up facility confirmed its stage (the confirmation is outside content).
      const confirmation = { tx_hash: `0x${"ab".repeat(32)}`, explorer_url: `${base}/explorer/tx/0x${"ab".repeat(32)}`, block_number: 42, details_hash: `0x${"cd".repeat(32)}`, confirmed_at: "2026-10-02T08:00:00.000Z" };
      const stages = TEXTILE.stages.map((stage, index) => ({ ...stage, index, attribution: index === 4 ? "confirmed_by_facility" : "declared_by_brand", confirmation: index === 4 ? confirmation : null }));
      Object.assign(input.record, { textile_stages: stages });

      const credential = buildCredential(config, didWebOf(config.publicBaseUrl), input) as Json;
      expect(checkUntpCredential(credential).errors).to.deep.equal([]);
      expect(await droppedTerms(credential, verifierLoader({ pinned: true }))).to.deep.equal([]);
      const entries = (credential.credentialSubject.traceabilityInformation as Json[]).filter((t) => t.processingStage !== undefined);
      expect(entries.map((t) => t.confirmedByFacility)).to.deep.equal([false, false, false, false, true]);
      expect(entries[4]).to.deep.include({ transactionHash: confirmation.tx_hash, blockNumber: 42, detailsHash: confirmation.details_hash, eventTime: confirmation.confirmed_at });
      expect(entries[4]!.traceabilityEvent[0].linkURL).to.equal(confirmation.explorer_url);
      expect(entries[3]).not.to.have.property("traceabilityEvent");

      const document = buildCatenaXPassport(config, input);
      expect(checkCatenaXPassport(document).errors).to.deep.equal([]);
      const processing = ((document.additionalData as Json[]).find((entry) => entry.label === "processingStages")!.children as Json[]).map((stage) =>
        Object.fromEntries((stage.children as Json[]).map((child) => [child.label, child.data])),
      );
      expect(processing.map((stage) => stage.attribution)).to.deep.equal(["declared_by_brand", "declared_by_brand", "declared_by_brand", "declared_by_brand", "confirmed_by_facility"]);
      expect(processing[4]!.confirmationTransaction).to.equal(confirmation.tx_hash);
      expect((document.sources as Json[]).filter((source) => source.content === confirmation.explorer_url)).to.have.length(1);
    });

    it("gives every leaf of the section a dictionary reference of its own and a data type in the EN 18222 full representation", async () => {
      const record = (await (await fetch(`${base}/api/dpp/${textileUid}`)).json()) as Json;
      const [section] = fullElements(record.content, {});
      const leaves: DataElement[] = [];
      const walk = (element: DataElement, path: string) => {
        const here = path ? `${path}.${element.elementId}` : element.elementId;
        if (element.elements) element.elements.forEach((child) => walk(child, here));
        else if (here.startsWith("textile.")) leaves.push({ ...element, elementId: here });
      };
      section!.elements!.forEach((element) => walk(element, ""));
      expect(leaves.length).to.be.greaterThan(40);
      for (const leaf of leaves) {
        // A reference made up from the path (the fallback) has dots in its fragment; a dictionary entry has none.
        expect(leaf.dictionaryReference, leaf.elementId).to.match(/^https:\/\/(gs1\.org\/voc\/|w3id\.org\/passport-registry\/vocab#)[A-Za-z0-9]+$/);
        expect(leaf.valueDataType, leaf.elementId).to.be.a("string");
      }
      const typeOf = (path: string) => leaves.find((leaf) => leaf.elementId === path)?.valueDataType;
      expect(typeOf("textile.production_date")).to.equal("xsd:date");
      expect(typeOf("textile.materials.1.recycled_percent")).to.equal("xsd:decimal");
      expect(typeOf("textile.repair.service_url")).to.equal("xsd:anyURI");
    });
  });

  describe("the brand's certificates", () => {
    it("claims a certificate as met only until its last valid day; an expired one stays listed as expired", async () => {
      const config = loadConfig(envOf(stack));
      const deps: AppDeps = buildAppDeps({ config, db: stack.api.db, provider: undefined as never, chain: stack.api.chain, logger: createLogger("silent") });
      const input = await credentialInput(deps, minted[0]!.uid);
      const today = new Date().toISOString().slice(0, 10);
      const certificate = { code: "GOTS", issuer: "Control Union", number: "CU-1" };
      input.record.content.certifications = [
        { ...certificate, valid_until: "2001-01-31" },
        { ...certificate, number: "CU-2", valid_until: today },
      ];
      const claims = (buildCredential(config, didWebOf(config.publicBaseUrl), input).credentialSubject as Json).conformityClaim as Json[];
      const [expired, current] = claims.filter((claim) => String(claim.id).includes("#product-certification-"));
      expect(expired).to.include({ conformance: false });
      expect(expired!.description).to.include("expired on 2001-01-31");
      expect(current).to.include({ conformance: true });
      expect(current!.description).to.include(`valid until ${today}`);
    });
  });
});

/** The environment the shared stack's API was configured from, enough for loadConfig to build the same config. */
function envOf(stack: SeededStack): Record<string, string> {
  const { config } = stack.api;
  return {
    SERVICE_MODE: "local",
    PUBLIC_BASE_URL: config.publicBaseUrl,
    DATABASE_URL: config.databaseUrl,
    RPC_URL: config.rpcUrl,
    ONCHAIN_SCHEMA: config.onchainSchema,
    DEPLOYMENTS_DIR: config.deploymentsDir,
    LOG_LEVEL: "silent",
  };
}
