// The JSON-LD contexts a passport credential uses, served from vendored copies (vocab/README.md) by a document loader
// that never goes online: the W3C VC 2.0 context, UNTP DPP 0.6.0, and the service's own small extension context.
import { readFileSync } from "node:fs";
import path from "node:path";

export const VC_V2_CONTEXT = "https://www.w3.org/ns/credentials/v2";
export const UNTP_DPP_CONTEXT = "https://test.uncefact.org/vocabulary/untp/dpp/0.6.0/";

/** Where the service serves its extension context (the chain anchor and the few facts UNTP 0.6.0 has no term for). */
export function registryContextUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl}/contexts/passport-registry/v1.jsonld`;
}

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
 * The extension context. Its terms live under the context's own URL (`…/v1.jsonld#term`), so they resolve wherever
 * the service is deployed; none of them redefines a protected VC or UNTP term (jsonld.expand would refuse it).
 */
export function registryContext(publicBaseUrl: string): Record<string, unknown> {
  const term = (name: string, type?: string) => ({ "@id": `pr:${name}`, ...(type ? { "@type": type } : {}) });
  return {
    "@context": {
      "@version": 1.1,
      "@protected": true,
      pr: `${registryContextUrl(publicBaseUrl)}#`,
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
 * A jsonld.js document loader over the vendored contexts and the service's own: any other URL throws, so expanding
 * or verifying a credential never makes a network request.
 */
export function offlineDocumentLoader(publicBaseUrl: string): (url: string) => Promise<RemoteDocument> {
  const documents = new Map<string, () => unknown>([
    [VC_V2_CONTEXT, () => vendoredJson("credentials-v2.jsonld")],
    [UNTP_DPP_CONTEXT, () => vendoredJson("untp-dpp-0.6.0-context.jsonld")],
    [registryContextUrl(publicBaseUrl), () => registryContext(publicBaseUrl)],
  ]);
  return async (url) => {
    const document = documents.get(url);
    if (!document) throw new Error(`offline document loader: ${url} is not a vendored context`);
    return { contextUrl: null, document: document(), documentUrl: url };
  };
}
