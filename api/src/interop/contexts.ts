// The JSON-LD contexts a passport credential uses, served from committed copies by a document loader that never goes
// online: the W3C VC 2.0 context and UNTP DPP 0.6.0 (vendored, vocab/README.md), and the service's own small extension
// context at its pinned URL (registry-context/README.md).
import { readFileSync } from "node:fs";
import path from "node:path";

export const VC_V2_CONTEXT = "https://www.w3.org/ns/credentials/v2";
export const UNTP_DPP_CONTEXT = "https://test.uncefact.org/vocabulary/untp/dpp/0.6.0/";

/**
 * The service's extension context (the chain anchor and the few facts UNTP 0.6.0 has no term for), at one URL that is
 * the same on every deployment, so a verifier can pin it once. A published version never changes: a new term is a new
 * version file in registry-context/ (its README says how). docs/interop.md says how the URL resolves.
 */
export const REGISTRY_CONTEXT_URL = "https://w3id.org/passport-registry/contexts/v3.jsonld";
/** Where the vocabulary IRIs of the context's terms live (unversioned: a term keeps its IRI across versions). */
export const REGISTRY_VOCAB = "https://w3id.org/passport-registry/vocab#";

const REGISTRY_CONTEXT_BASE = "https://w3id.org/passport-registry/contexts/";

/**
 * Each published version of the context: its URL, the path the service serves it at (the URL's own path) and its
 * file. v2 adds the passport's persistent id and its links to its model and batch passports (issue 25); v3 the textile
 * section's terms UNTP 0.6.0 has none for (issue 26: stages and their facilities, durability, care symbols, substances of
 * concern, repair and end of life, the carbon figure's method).
 */
export const REGISTRY_CONTEXTS = (["v1.jsonld", "v2.jsonld", "v3.jsonld"] as const).map((file) => {
  const url = `${REGISTRY_CONTEXT_BASE}${file}`;
  return { url, path: new URL(url).pathname, file };
});

/** A published version's bytes, as committed in registry-context/; read once. */
const published = new Map<string, Buffer>();
export function registryContextBytes(file: (typeof REGISTRY_CONTEXTS)[number]["file"]): Buffer {
  let bytes = published.get(file);
  if (!bytes) published.set(file, (bytes = readFileSync(path.join(__dirname, "registry-context", file))));
  return bytes;
}

/**
 * Where the service served its extension context before the pinned URL, a document built from PUBLIC_BASE_URL.
 * Credentials issued then name it, so it keeps answering what it answered (legacyRegistryContext).
 */
export const LEGACY_REGISTRY_CONTEXT_PATH = "/contexts/passport-registry/v1.jsonld";

const VOCAB_DIR = path.join(__dirname, "vocab");

/** A vendored file of vocab/, parsed; read once. */
const vendored = new Map<string, unknown>();
export function vendoredJson(file: string): unknown {
  let document = vendored.get(file);
  if (document === undefined) {
    document = JSON.parse(readFileSync(path.join(VOCAB_DIR, file), "utf8")) as unknown;
    vendored.set(file, document);
  }
  return document;
}

/**
 * The per-deployment context served at LEGACY_REGISTRY_CONTEXT_PATH, unchanged: its terms live under that URL
 * (`…/v1.jsonld#term`). New credentials name REGISTRY_CONTEXT_URL instead.
 */
export function legacyRegistryContext(publicBaseUrl: string): Record<string, unknown> {
  const term = (name: string, type?: string) => ({ "@id": `pr:${name}`, ...(type ? { "@type": type } : {}) });
  return {
    "@context": {
      "@version": 1.1,
      "@protected": true,
      pr: `${publicBaseUrl}${LEGACY_REGISTRY_CONTEXT_PATH}#`,
      xsd: "http://www.w3.org/2001/XMLSchema#",
      ChainAnchor: "pr:ChainAnchor",
      chainAnchor: term("chainAnchor"),
      network: term("network"),
      chainId: term("chainId", "xsd:integer"),
      contractAddress: term("contractAddress"),
      tokenId: term("tokenId"),
      dataHash: term("dataHash"),
      dataHashMethod: term("dataHashMethod"),
      anchoredRecord: term("anchoredRecord", "@id"),
      transactionHash: term("transactionHash"),
      blockNumber: term("blockNumber", "xsd:integer"),
      explorerURL: term("explorerURL", "@id"),
      eventTime: term("eventTime", "xsd:dateTime"),
      detailsHash: term("detailsHash"),
      carbonRating: term("carbonRating"),
      estimationMethod: term("estimationMethod"),
      garmentCategory: term("garmentCategory"),
      fabricType: term("fabricType"),
      careInstructions: term("careInstructions"),
    },
  };
}

export type RemoteDocument = { contextUrl: null; document: unknown; documentUrl: string };

/**
 * A jsonld.js document loader over the vendored contexts and the pinned one, as a verifier holds them: any other URL
 * throws, so expanding or verifying a credential never makes a network request.
 */
export function offlineDocumentLoader(): (url: string) => Promise<RemoteDocument> {
  const documents = new Map<string, () => unknown>([
    [VC_V2_CONTEXT, () => vendoredJson("credentials-v2.jsonld")],
    [UNTP_DPP_CONTEXT, () => vendoredJson("untp-dpp-0.6.0-context.jsonld")],
    ...REGISTRY_CONTEXTS.map(({ url, file }) => [url, () => JSON.parse(registryContextBytes(file).toString("utf8")) as unknown] as const),
  ]);
  return async (url) => {
    const document = documents.get(url);
    if (!document) throw new Error(`offline document loader: ${url} is not a vendored context`);
    return { contextUrl: null, document: document(), documentUrl: url };
  };
}
