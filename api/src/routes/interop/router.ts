// Issue 16: the passport as the EU market reads it (docs/interop.md): the UNTP credential (signed, or as JSON-LD), the
// Catena-X export, the service's did:web document and its JSON-LD extension context; and the content negotiation
// that answers the credential on the passport's page addresses (/scan/{uid}, /dpp-certificate/{uid}).
import type Router from "@koa/router";
import type { Context, Middleware } from "koa";
import type { Reader } from "../../access/readers";
import type { AppDeps, AppState } from "../../deps";
import { markReaderResponse, requestReader } from "../../middleware/reader";
import { buildCatenaXPassport } from "../../interop/catena-x";
import { CATENA_X_PASSPORT_COMPONENT, catenaXComponents } from "../../interop/catena-x-schema";
import { credentialInput, passportCredential, type CredentialInput, type PassportCredential } from "../../interop/credential";
import { IndexedReadCache, sharedIndexerState } from "../../onchain/indexed-read-cache";
import { LEGACY_REGISTRY_CONTEXT_PATH, legacyRegistryContext, REGISTRY_CONTEXT_URL, REGISTRY_CONTEXTS, registryContextBytes } from "../../interop/contexts";
import { serviceDidDocument } from "../../interop/signing-key";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import type { JsonSchema } from "../../validation";
import { UID_PATTERN, uidParam } from "../dpp/schemas";
import { defineRoute, mountRoutes } from "../define-route";

export const VC_JWT_TYPE = "application/vc+jwt";
/** The media types that ask for the credential: signed first (the default), then the unsigned JSON-LD forms. */
export const CREDENTIAL_TYPES = [VC_JWT_TYPE, "application/ld+json", "application/vc"] as const;
type CredentialType = (typeof CREDENTIAL_TYPES)[number];

const MAX_AGE_SECONDS = 5;

/**
 * A passport's credential and Catena-X input, read the way GET /api/dpp/{uid} reads its record: a burst of reads of
 * one passport is served by one build for up to a second, never once the indexer has moved on.
 */
function passportReads(deps: AppDeps) {
  const indexer = sharedIndexerState(deps.db, deps.config.onchainSchema);
  // The caches hold the public's view only: a reader above the public gets its own, built (and signed) for it alone
  // and logged (docs/access.md), as GET /api/dpp/{uid} does.
  const credentials = new IndexedReadCache<PassportCredential>({ ttlMs: 1000, maxEntries: 1000 });
  const inputs = new IndexedReadCache<CredentialInput>({ ttlMs: 1000, maxEntries: 1000 });
  return {
    credential: async (uid: string, reader: Reader) => {
      const state = await indexer().catch(() => undefined);
      const build = () => passportCredential(deps, uid, state, { reader, operation: "Credential" });
      return reader.class === "public" ? credentials.read(uid, state?.indexedBlock, build) : build();
    },
    input: async (uid: string, reader: Reader) => {
      const state = await indexer().catch(() => undefined);
      const build = () => credentialInput(deps, uid, state, { reader, operation: "CatenaXExport" });
      return reader.class === "public" ? inputs.read(uid, state?.indexedBlock, build) : build();
    },
  };
}

type PassportReads = ReturnType<typeof passportReads>;

/** Answers the credential of `uid` in the form asked for; NOT_FOUND (JSON) when there is no minted passport. */
async function sendCredential(deps: AppDeps, reads: PassportReads, ctx: Context, uid: string, type: CredentialType): Promise<void> {
  const reader = await requestReader(deps, ctx);
  const { credential, jwt } = await reads.credential(uid.toUpperCase(), reader);
  ctx.set("Cache-Control", `public, max-age=${MAX_AGE_SECONDS}`);
  markReaderResponse(ctx, reader);
  ctx.type = type;
  ctx.body = type === VC_JWT_TYPE ? jwt : JSON.stringify(credential);
}

const readsByApp = new WeakMap<AppDeps, PassportReads>();

/** One set of cached reads per app: the interop router and the pages' negotiation are built from the same deps. */
function readsOf(deps: AppDeps): PassportReads {
  let reads = readsByApp.get(deps);
  if (!reads) readsByApp.set(deps, (reads = passportReads(deps)));
  return reads;
}

/**
 * For the passport's page addresses: a client preferring a credential type to text/html gets the credential (or the
 * JSON 404); any other request goes on to the page. Responses vary on Accept either way.
 */
export function credentialNegotiation(deps: AppDeps): Middleware<AppState> {
  const reads = readsOf(deps);
  const uidPattern = new RegExp(UID_PATTERN);
  return async (ctx, next) => {
    ctx.vary("Accept");
    const wanted = ctx.accepts("text/html", ...CREDENTIAL_TYPES);
    const uid = (ctx as unknown as { params: { uid?: string } }).params.uid;
    // A malformed UID is the page's to answer (its own 422 page), whoever asks.
    if (wanted === false || wanted === "text/html" || !uid || uid.length > 43 || !uidPattern.test(uid)) return next();
    await sendCredential(deps, reads, ctx, uid, wanted as CredentialType);
  };
}

/** `?format=`: a plain link (a browser sends Accept: text/html) picks the form itself, over any Accept header. */
const FORMAT_TYPES = { jwt: VC_JWT_TYPE, json: "application/ld+json" } as const satisfies Record<string, CredentialType>;
const credentialFormatQuery = {
  type: "object",
  properties: {
    format: { type: "string", enum: ["jwt", "json"], description: "`json`: the unsigned JSON-LD form (application/ld+json); `jwt`: the signed form. Overrides Accept." },
  },
} as const;

const credentialExample = "eyJhbGciOiJFZERTQSIsInR5cCI6InZjK2p3dCIsImN0eSI6InZjIiwia2lkIjoiZGlkOndlYjouLi4ifQ.eyJAY29udGV4dCI6Wy4uLl19.c2lnbmF0dXJl";

/** The unsigned credential's outline; its subject is UNTP DPP 0.6.0's ProductPassport (docs/interop.md). */
const credentialSchema: JsonSchema = {
  type: "object",
  required: ["@context", "type", "id", "issuer", "validFrom", "credentialSubject"],
  properties: {
    "@context": { type: "array", items: { type: "string", format: "uri" } },
    type: { type: "array", items: { type: "string" } },
    id: { type: "string", format: "uri" },
    name: { type: "string" },
    issuer: {
      type: "object",
      additionalProperties: false,
      required: ["type", "id", "name"],
      properties: { type: { type: "array", items: { type: "string" } }, id: { type: "string" }, name: { type: "string" } },
    },
    validFrom: { type: "string", format: "date-time" },
    credentialSubject: {
      type: "object",
      additionalProperties: true,
      description: "a UNTP DPP 0.6.0 ProductPassport (its schema is UNTP's) with the service's extension terms",
    },
  },
};

const didDocumentSchema: JsonSchema = {
  type: "object",
  required: ["@context", "id", "verificationMethod", "assertionMethod"],
  properties: {
    "@context": { type: "array", items: { type: "string" } },
    id: { type: "string", pattern: "^did:web:" },
    verificationMethod: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "type", "controller", "publicKeyJwk"],
        properties: {
          id: { type: "string" },
          type: { const: "JsonWebKey2020" },
          controller: { type: "string" },
          publicKeyJwk: {
            type: "object",
            description: "the public key: an Ed25519 key (OKP) or a P-256 key (EC, with `y`)",
            additionalProperties: false,
            required: ["kty", "crv", "x"],
            properties: { kty: { enum: ["OKP", "EC"] }, crv: { enum: ["Ed25519", "P-256"] }, x: { type: "string" }, y: { type: "string" } },
          },
        },
      },
    },
    assertionMethod: { type: "array", items: { type: "string" } },
  },
};


/** A JSON-LD context of term definitions, as the extension contexts are written. */
const jsonLdContextSchema: JsonSchema = {
  type: "object",
  required: ["@context"],
  additionalProperties: false,
  properties: {
    "@context": {
      type: "object",
      description: "Term definitions by term, and the context's keywords (`@version`, `@protected`).",
      additionalProperties: {
        anyOf: [
          { type: "string", description: "an IRI or compact IRI" },
          {
            type: "object",
            description: "an expanded term definition",
            additionalProperties: false,
            properties: { "@id": { type: "string" }, "@type": { type: "string" } },
          },
          { type: "number" },
          { type: "boolean" },
        ],
      },
    },
  },
};

export function interopRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const reads = readsOf(deps);
  // The export's schema is the vendored model itself, its definitions as components.
  openapi.addSchemas(catenaXComponents());
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/dpp/:uid/credential",
      operationId: "getPassportCredential",
      tag: "Public",
      auth: "public",
      summary: "The UNTP Digital Product Passport credential (VC 2.0) of a minted passport",
      description:
        "UNTP DPP 0.6.0 as a W3C Verifiable Credential 2.0, issued by the service's did:web (/.well-known/did.json). " +
        "By default, and for `Accept: application/vc+jwt`, signed as VC-JOSE: a compact JWS (header typ vc+jwt, cty " +
        "vc, kid the DID's key) whose payload is the credential. `Accept: application/ld+json` or `application/vc` " +
        "gives the same credential unsigned, as JSON-LD; so does `?format=json`, for a plain link. The passport URL /scan/{uid} answers the same to a client " +
        "that prefers these types to text/html. Responses vary on Accept and Authorization. docs/interop.md lists what it carries. " +
        "Elements above the reader's access class (`Authorization: Bearer` a reader key, role credential or authority key; " +
        "docs/access.md) are absent, and a further-information link names them; a reader's credential is signed for it and logged.",
      params: uidParam,
      query: credentialFormatQuery,
      responses: {
        "200": {
          description: "the signed credential (application/vc+jwt); the JSON-LD form for the other media types",
          contentType: VC_JWT_TYPE,
          schema: { type: "string" },
          example: credentialExample,
          otherTypes: { "application/ld+json": { schema: credentialSchema }, "application/vc": { schema: credentialSchema } },
        },
        "401": errorResponse("a reader credential that fails: READER_KEY_INVALID, CREDENTIAL_INVALID, CREDENTIAL_EXPIRED, CREDENTIAL_AUDIENCE, CREDENTIAL_UNTRUSTED_ISSUER (docs/access.md)"),
        "404": errorResponse("no minted passport for that UID"),
        "422": errorResponse("the UID is not of the form <PREFIX>-<CODE>"),
      },
      handler: async (ctx) => {
        ctx.vary("Accept");
        const format = ctx.query.format;
        const wanted = format ? FORMAT_TYPES[format] : ctx.accepts(...CREDENTIAL_TYPES);
        await sendCredential(deps, reads, ctx, ctx.params.uid, wanted === false ? VC_JWT_TYPE : (wanted as CredentialType));
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dpp/:uid/catena-x",
      operationId: "getPassportCatenaX",
      tag: "Public",
      auth: "public",
      summary: "A minted passport as a Catena-X generic Digital Product Passport (7.0.0)",
      description:
        "Valid against the vendored io.catenax.generic.digital_product_passport 7.0.0 schema. Values the model " +
        "requires and the service has no data for are placeholders, each listed by JSON pointer in `additionalData` " +
        "(label `placeholders`); the chain anchor is in `additionalData` too (label `chainAnchor`). Elements above the reader's " +
        "access class (`Authorization: Bearer`, docs/access.md) are absent and listed in `additionalData` (label `withheldElements`).",
      params: uidParam,
      responses: {
        "200": {
          description: "the Catena-X DPP document (io.catenax.generic.digital_product_passport 7.0.0; `additionalData` holds `chainAnchor` and `placeholders`)",
          schema: { $ref: `#/components/schemas/${CATENA_X_PASSPORT_COMPONENT}` },
        },
        "401": errorResponse("a reader credential that fails: READER_KEY_INVALID, CREDENTIAL_INVALID, CREDENTIAL_EXPIRED, CREDENTIAL_AUDIENCE, CREDENTIAL_UNTRUSTED_ISSUER (docs/access.md)"),
        "404": errorResponse("no minted passport for that UID"),
        "422": errorResponse("the UID is not of the form <PREFIX>-<CODE>"),
      },
      handler: async (ctx) => {
        const reader = await requestReader(deps, ctx);
        const input = await reads.input(ctx.params.uid.toUpperCase(), reader);
        ctx.set("Cache-Control", `public, max-age=${MAX_AGE_SECONDS}`);
        markReaderResponse(ctx, reader);
        ctx.body = buildCatenaXPassport(deps.config, input);
      },
    }),
    defineRoute({
      method: "get",
      path: "/.well-known/did.json",
      operationId: "getDidDocument",
      tag: "Public",
      auth: "public",
      summary: "The service's did:web document: the public key its credentials are signed with",
      responses: { "200": { description: "DID document (JsonWebKey2020 verification method)", schema: didDocumentSchema } },
      handler: async (ctx) => {
        ctx.set("Cache-Control", "public, max-age=300");
        ctx.body = await serviceDidDocument(deps.config);
      },
    }),
    // Each published version, byte for byte as committed: a verifier may have pinned those bytes, so they never change.
    ...REGISTRY_CONTEXTS.map(({ url, path, file }) =>
      defineRoute({
        method: "get",
        path,
        operationId: `getRegistryContext${file.replace(/\.jsonld$/, "").toUpperCase()}`,
        tag: "Public",
        auth: "public",
        summary: "The JSON-LD context of the service's extension terms in credentials (chain anchor, carbon method)",
        description:
          `The copy the service serves of ${url}, the same bytes on every ` +
          "deployment; a published version never changes (a new term is a new version).",
        responses: { "200": { description: "JSON-LD context", contentType: "application/ld+json", schema: jsonLdContextSchema } },
        handler: (ctx) => {
          ctx.set("Cache-Control", "public, max-age=31536000, immutable");
          ctx.type = "application/ld+json";
          ctx.body = registryContextBytes(file);
        },
      }),
    ),
    defineRoute({
      method: "get",
      path: LEGACY_REGISTRY_CONTEXT_PATH,
      operationId: "getLegacyRegistryContext",
      tag: "Public",
      auth: "public",
      summary: "The extension context credentials named before the pinned one (per deployment; superseded)",
      description: `Credentials issued before the extension context had one URL name this address; new ones name ${REGISTRY_CONTEXT_URL}.`,
      responses: { "200": { description: "JSON-LD context", contentType: "application/ld+json", schema: jsonLdContextSchema } },
      handler: (ctx) => {
        ctx.set("Cache-Control", "public, max-age=3600");
        ctx.type = "application/ld+json";
        ctx.body = JSON.stringify(legacyRegistryContext(deps.config.publicBaseUrl));
      },
    }),
  ]);
}
