// The GS1 Digital Link resolver (GS1-Conformant Resolver standard 1.2): what a Digital Link URI names and the links
// it resolves to, as an RFC 9264 linkset. The HTTP side (redirects, negotiation) is routes/gs1/router.ts.
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { brandAddressOf, brandBaseUrl, brandProfileUrl, certificatePdfUrl, productLinks } from "../links";
import { digitalLinkPath, type DigitalLinkRequest } from "./digital-link";
import { findProductsByGtin, type IdentifiedProduct } from "./gs1.repo";

export const GS1_VOC = "https://gs1.org/voc/";

/** IANA's link relations (RFC 8288), the namespace of `dpp` and `linkset`. */
export const IANA_RELATIONS = "http://www.iana.org/assignments/relation/";

/** GS1's JSON-LD context for linksets (a resolver standard 1.2 artefact; immutable at this versioned URL). */
export const LINKSET_CONTEXT = "https://ref.gs1.org/standards/resolver/1.2.0/linkset-context";

/** A link target of a linkset (RFC 9264 section 4.2.4): GS1 asks for a title on every one. */
export type LinkTarget = { href: string; title: string; type?: string; hreflang?: string[] };

/** One link context object: its anchor, what it names, and per relation type (a GS1 vocabulary URI, or IANA's `dpp`) its targets. */
export type LinkContext = { anchor: string; itemDescription: string } & { [relation: string]: LinkTarget[] | string };

export type Linkset = { linkset: LinkContext[] };

/** The link types the resolver serves, in the order a linkset lists them (all GS1 web vocabulary terms but `dpp`). */
export const LINK_TYPES = ["defaultLink", "pip", "dpp", "certificationInfo", "homepage"] as const;

export type LinkType = (typeof LINK_TYPES)[number];

/**
 * What a resolved URI offers: its canonical anchor, a description of what it names, its links by type, and the
 * default link (where a browser goes: a title and nothing else, as the resolver standard says). `passportPage` is the
 * page that checks an NFC tap, the only target a tag's SUN parameters go on to.
 */
export type Resolution = { anchor: string; itemDescription: string; links: Map<LinkType, LinkTarget[]>; defaultLink: LinkTarget; passportPage?: string };

/** The IANA link relation `dpp` (a Digital Product Passport), listed next to gs1:dpp with the same targets. */
export const IANA_DPP = "dpp";

/** Languages of the shopper pages (issue 16: Bengali and English). */
const PAGE_LANGUAGES = ["en", "bn"];

/** Items listed under one GTIN at most: a product-level URI of a GTIN with more items names the brand, not them. */
const MAX_ITEMS = 50;

/**
 * The products a Digital Link URI names, and its links; undefined when its GTIN names none. With a serial the URI
 * names an item (GTIN and serial are unique). Without one it names the trade item: the item when it is the only one
 * with that GTIN (and lot), else the brand (whose profile lists its products); on a brand's host only that brand's
 * products count. A lot or serial nobody registered walks up to the GTIN (resolver standard 1.2): the brand's page,
 * never another item's passport, so a made-up serial cannot borrow a genuine item's record.
 */
export async function resolveDigitalLink(
  deps: { db: Knex; config: Pick<Config, "publicBaseUrl" | "domains"> },
  request: DigitalLinkRequest,
  brandId: number | undefined,
): Promise<Resolution | undefined> {
  const products = await findProductsByGtin(deps.db, request, { brandId, limit: MAX_ITEMS });
  if (products.length === 1) return itemLinks(deps.config, anchorOf(deps.config, products[0]!, request), products[0]!, request);
  if (products.length > 1) return brandLinks(deps.config, anchorOf(deps.config, products[0]!, request), products);
  if (request.lot === undefined && request.serial === undefined) return undefined;
  const tradeItem = await findProductsByGtin(deps.db, { gtin: request.gtin }, { brandId, limit: MAX_ITEMS });
  if (tradeItem.length === 0) return undefined;
  return brandLinks(deps.config, anchorOf(deps.config, tradeItem[0]!, request), tradeItem);
}

function anchorOf(config: Pick<Config, "publicBaseUrl" | "domains">, product: IdentifiedProduct, request: DigitalLinkRequest): string {
  return `${brandBaseUrl(config, brandAddressOf(product))}${digitalLinkPath(request)}`;
}

function itemLinks(config: Pick<Config, "publicBaseUrl" | "domains">, anchor: string, product: IdentifiedProduct, request: DigitalLinkRequest): Resolution {
  const brand = brandAddressOf(product);
  const { scan_url, certificate_url } = productLinks(config, product.uid, brand);
  const base = brandBaseUrl(config, brand);
  const minted = product.passport_status === "minted";
  const title = `Product passport ${product.uid}`;
  const page: LinkTarget = { href: scan_url, title, type: "text/html", hreflang: PAGE_LANGUAGES };
  const defaultLink: LinkTarget = { href: scan_url, title };
  const links = new Map<LinkType, LinkTarget[]>([
    ["defaultLink", [defaultLink]],
    ["pip", [page]],
  ]);
  if (minted) {
    // The UNTP credential (issue 16): signed (VC-JOSE) by default, or its JSON-LD; the record with its chain anchor.
    const credential = `${base}/api/dpp/${product.uid}/credential`;
    links.set("dpp", [
      { href: credential, title: "Digital Product Passport (UNTP verifiable credential, signed)", type: "application/vc+jwt" },
      { href: credential, title: "Digital Product Passport (UNTP credential, JSON-LD)", type: "application/ld+json" },
      { href: `${base}/api/dpp/${product.uid}/catena-x`, title: "Digital Product Passport (Catena-X generic DPP 7.0.0)", type: "application/json" },
      { href: `${base}/api/dpp/${product.uid}`, title: "Passport record with its blockchain anchor", type: "application/json" },
    ]);
  }
  const certification: LinkTarget[] = [{ href: certificate_url, title: "Certificate of authenticity", type: "text/html", hreflang: PAGE_LANGUAGES }];
  if (minted) certification.push({ href: certificatePdfUrl(config, product.uid, brand), title: "Certificate (PDF)", type: "application/pdf", hreflang: PAGE_LANGUAGES });
  links.set("certificationInfo", certification);
  links.set("homepage", [{ href: brandProfileUrl(config, brand), title: product.brand_name, type: "text/html" }]);
  return { anchor, itemDescription: itemDescription(product, request), links, defaultLink, passportPage: scan_url };
}

/** "Oxford shirt, lot L1, serial S1": the product's name and the qualifiers the URI gives. */
function itemDescription(product: IdentifiedProduct, request: DigitalLinkRequest): string {
  return [product.product_name, request.lot !== undefined ? `lot ${request.lot}` : undefined, request.serial !== undefined ? `serial ${request.serial}` : undefined]
    .filter((part) => part !== undefined)
    .join(", ");
}

function brandLinks(config: Pick<Config, "publicBaseUrl" | "domains">, anchor: string, products: IdentifiedProduct[]): Resolution {
  const brands = new Map(products.map((product) => [product.brand_id, product]));
  const homepages: LinkTarget[] = [...brands.values()].map((product) => ({ href: brandProfileUrl(config, brandAddressOf(product)), title: product.brand_name, type: "text/html" }));
  const defaultLink: LinkTarget = { href: homepages[0]!.href, title: homepages[0]!.title };
  const names = new Set(products.map((product) => product.product_name));
  const itemDescription = names.size === 1 ? `${products[0]!.product_name} (GTIN ${products[0]!.gtin})` : `${products[0]!.brand_name} products with GTIN ${products[0]!.gtin}`;
  return { anchor, itemDescription, links: new Map([["defaultLink", [defaultLink]], ["homepage", homepages]]), defaultLink };
}

/** The RFC 9264 linkset of a resolution: GS1 link types as vocabulary URIs, gs1:dpp's targets also under IANA `dpp`. */
export function linksetOf(resolution: Resolution, only?: { type: LinkType; targets: LinkTarget[] }): Linkset {
  const context: LinkContext = { anchor: resolution.anchor, itemDescription: resolution.itemDescription };
  for (const type of only ? [only.type] : LINK_TYPES) {
    const targets = only ? only.targets : resolution.links.get(type);
    if (targets) context[`${GS1_VOC}${type}`] = targets;
  }
  const dpp = resolution.links.get("dpp");
  if (dpp && !only) context[IANA_DPP] = dpp;
  return { linkset: [context] };
}

/**
 * The link type a `linkType` query value names: `gs1:pip` or the vocabulary URI; IANA's `dpp` (bare, `iana:dpp` or
 * its URI); "linkset" for the whole set (`linkset` or `all`); undefined for a value this resolver does not know.
 */
export function linkTypeOf(value: string): LinkType | "linkset" | undefined {
  if (value === "linkset" || value === "all") return "linkset";
  if (value === IANA_DPP || value === `iana:${IANA_DPP}` || value === `${IANA_RELATIONS}${IANA_DPP}`) return "dpp";
  const term = value.startsWith("gs1:") ? value.slice(4) : value.replace(/^https?:\/\/(?:ref\.|www\.)?gs1\.org\/voc\//, "");
  return (LINK_TYPES as readonly string[]).includes(term) && term !== value ? (term as LinkType) : undefined;
}

/**
 * The resolver description GS1 resolvers publish at /.well-known/gs1resolver (resolver standard 1.2; valid against
 * its description-file schema): primary keys by AI, each link-type namespace with a CURIE prefix.
 */
export function resolverDescription(resolverRoot: string) {
  return {
    name: "Passport Registry GS1 Digital Link resolver",
    resolverRoot,
    supportedPrimaryKeys: ["01"],
    linkTypeDefaultCanBeLinkset: false,
    supportedLinkType: [
      { namespace: GS1_VOC, prefix: "gs1:", terms: LINK_TYPES.map((type) => `gs1:${type}`) },
      { namespace: IANA_RELATIONS, prefix: "iana:", terms: [`iana:${IANA_DPP}`] },
    ],
    supportedContextValuesEnumerated: [],
    jsonLdContextLocation: LINKSET_CONTEXT,
  };
}
