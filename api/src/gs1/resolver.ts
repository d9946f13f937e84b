// The GS1 Digital Link resolver (GS1-Conformant Resolver standard 1.2): what a Digital Link URI names and the links
// it resolves to, as an RFC 9264 linkset. The HTTP side (redirects, negotiation) is routes/gs1/router.ts.
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { brandAddressOf, brandBaseUrl, brandProfileUrl, certificatePdfUrl, productLinks } from "../links";
import { digitalLinkPath, type DigitalLinkRequest } from "./digital-link";
import { findProductsByGtin, type IdentifiedProduct } from "./gs1.repo";

export const GS1_VOC = "https://gs1.org/voc/";

/** A link target of a linkset (RFC 9264 section 4.2.4). */
export type LinkTarget = { href: string; type?: string; hreflang?: string[]; title?: string };

/** One link context object: its anchor and, per relation type (a GS1 vocabulary URI, or IANA's `dpp`), its targets. */
export type LinkContext = { anchor: string } & { [relation: string]: LinkTarget[] | string };

export type Linkset = { linkset: LinkContext[] };

/** What a resolved URI offers: its canonical anchor, its linkset, and the default link (where a browser goes). */
export type Resolution = { anchor: string; links: Map<string, LinkTarget[]>; defaultLink: LinkTarget };

/** The link types the resolver serves, in the order a linkset lists them (all GS1 web vocabulary terms but `dpp`). */
export const LINK_TYPES = ["defaultLink", "pip", "dpp", "certificationInfo", "homepage"] as const;

/** The IANA link relation `dpp` (a Digital Product Passport), listed next to gs1:dpp with the same targets. */
export const IANA_DPP = "dpp";

/** Languages of the shopper pages (issue 16: Bengali and English). */
const PAGE_LANGUAGES = ["en", "bn"];

/** Items listed under one GTIN at most: a product-level URI of a GTIN with more items names the brand, not them. */
const MAX_ITEMS = 50;

/**
 * The products a Digital Link URI names, and its links; undefined when it names none. With a serial the URI names an
 * item (GTIN and serial are unique). Without one it names the trade item: the item when it is the only one with that
 * GTIN (and lot), else the brand (whose profile lists its products); on a brand's host only that brand's products count.
 */
export async function resolveDigitalLink(
  deps: { db: Knex; config: Pick<Config, "publicBaseUrl" | "domains"> },
  request: DigitalLinkRequest,
  brandId: number | undefined,
): Promise<Resolution | undefined> {
  const products = await findProductsByGtin(deps.db, request, { brandId, limit: MAX_ITEMS });
  if (products.length === 0) return undefined;
  const first = products[0]!;
  const anchor = `${brandBaseUrl(deps.config, brandAddressOf(first))}${digitalLinkPath(request)}`;
  if (products.length === 1) return itemLinks(deps.config, anchor, first);
  return brandLinks(deps.config, anchor, products);
}

function itemLinks(config: Pick<Config, "publicBaseUrl" | "domains">, anchor: string, product: IdentifiedProduct): Resolution {
  const brand = brandAddressOf(product);
  const { scan_url, certificate_url } = productLinks(config, product.uid, brand);
  const base = brandBaseUrl(config, brand);
  const minted = product.passport_status === "minted";
  const page: LinkTarget = { href: scan_url, type: "text/html", hreflang: PAGE_LANGUAGES, title: `Product passport ${product.uid}` };
  const links = new Map<string, LinkTarget[]>([
    ["defaultLink", [page]],
    ["pip", [page]],
  ]);
  if (minted) {
    // The UNTP credential (issue 16): signed (VC-JOSE) by default, or its JSON-LD; the record with its chain anchor.
    const credential = `${base}/api/dpp/${product.uid}/credential`;
    links.set("dpp", [
      { href: credential, type: "application/vc+jwt", title: "Digital Product Passport (UNTP verifiable credential, signed)" },
      { href: credential, type: "application/ld+json", title: "Digital Product Passport (UNTP credential, JSON-LD)" },
      { href: `${base}/api/dpp/${product.uid}/catena-x`, type: "application/json", title: "Digital Product Passport (Catena-X generic DPP 7.0.0)" },
      { href: `${base}/api/dpp/${product.uid}`, type: "application/json", title: "Passport record with its blockchain anchor" },
    ]);
  }
  const certification: LinkTarget[] = [{ href: certificate_url, type: "text/html", hreflang: PAGE_LANGUAGES, title: "Certificate of authenticity" }];
  if (minted) certification.push({ href: certificatePdfUrl(config, product.uid, brand), type: "application/pdf", hreflang: PAGE_LANGUAGES, title: "Certificate (PDF)" });
  links.set("certificationInfo", certification);
  links.set("homepage", [{ href: brandProfileUrl(config, brand), type: "text/html", title: product.brand_name }]);
  return { anchor, links, defaultLink: page };
}

function brandLinks(config: Pick<Config, "publicBaseUrl" | "domains">, anchor: string, products: IdentifiedProduct[]): Resolution {
  const brands = new Map(products.map((product) => [product.brand_id, product]));
  const homepages = [...brands.values()].map((product) => ({ href: brandProfileUrl(config, brandAddressOf(product)), type: "text/html", title: product.brand_name }));
  return { anchor, links: new Map([["defaultLink", [homepages[0]!]], ["homepage", homepages]]), defaultLink: homepages[0]! };
}

/** The RFC 9264 linkset of a resolution: GS1 link types as vocabulary URIs, gs1:dpp's targets also under IANA `dpp`. */
export function linksetOf(resolution: Resolution): Linkset {
  const context: LinkContext = { anchor: resolution.anchor };
  for (const type of LINK_TYPES) {
    const targets = resolution.links.get(type);
    if (targets) context[`${GS1_VOC}${type}`] = targets;
  }
  const dpp = resolution.links.get("dpp");
  if (dpp) context[IANA_DPP] = dpp;
  return { linkset: [context] };
}

/**
 * The link type a `linkType` query value names: `gs1:pip`, the vocabulary URI, or IANA's `dpp`; "linkset" for the
 * whole set (`linkset` or `all`); undefined for a value this resolver does not know.
 */
export function linkTypeOf(value: string): (typeof LINK_TYPES)[number] | "linkset" | undefined {
  if (value === "linkset" || value === "all") return "linkset";
  if (value === IANA_DPP) return "dpp";
  const term = value.startsWith("gs1:") ? value.slice(4) : value.replace(/^https?:\/\/gs1\.org\/voc\//, "");
  return (LINK_TYPES as readonly string[]).includes(term) && term !== value ? (term as (typeof LINK_TYPES)[number]) : undefined;
}

/** The resolver description GS1 resolvers publish at /.well-known/gs1resolver (resolver standard 1.2). */
export function resolverDescription(resolverRoot: string) {
  return {
    name: "Passport Registry GS1 Digital Link resolver",
    resolverRoot,
    supportedPrimaryKeys: ["gtin"],
    supportedQualifiers: { gtin: ["lot", "ser"] },
    linkTypeDefaultCanBeLinkset: false,
    supportedLinkType: [
      { namespace: GS1_VOC, prefix: "gs1:", terms: LINK_TYPES.map((type) => `gs1:${type}`) },
      { namespace: "http://www.iana.org/assignments/relation/", prefix: "", terms: [IANA_DPP, "linkset"] },
    ],
    supportedContextValuesEnumerated: [],
  };
}
