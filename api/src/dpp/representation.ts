// A passport as EN 18222 serves it: the EN 18223 header, then the content section keyed by its content specification
// id. The section is the anchored content itself (passports/content.ts), so keccak256 of its RFC 8785 canonical JSON
// is the hash on chain. `compressed` keys each element by its id; `full` lists the elements with their type, data
// type and dictionary reference (elements.ts).
import type { Config } from "../config";
import { productDigitalLink } from "../gs1/links";
import { brandAddressOf, productLinks } from "../links";
import type { PassportContent } from "../passports/content";
import type { ProductRow } from "../products/products.repo";
import { fullElements, type DataElement, type Translations } from "./elements";
import type { VersionRecord } from "./dpp.repo";
import { backupUrlOf } from "../registry/urls";

/** Versions this representation (header fields and section keys); docs/dpp-api.md says what each holds. */
export const DPP_SCHEMA_VERSION = "1.0.0";

export const HEADER_FIELDS = [
  "digitalProductPassportId",
  "uniqueProductIdentifier",
  "granularity",
  "dppSchemaVersion",
  "dppStatus",
  "lastUpdate",
  "economicOperatorId",
  "facilityId",
  "contentSpecificationIds",
  "backupUrl",
] as const;

export type DppHeader = {
  digitalProductPassportId: string;
  uniqueProductIdentifier: string;
  granularity: "model" | "batch" | "item";
  dppSchemaVersion: string;
  dppStatus: "active" | "inactive" | "archived";
  lastUpdate: string;
  economicOperatorId: string | null;
  facilityId: string | null;
  contentSpecificationIds: string[];
  /** Our extension: where the back-up operator serves this passport (ESPR Art. 10(4)); null without one. */
  backupUrl: string | null;
};

/** Where the passport is anchored (our extension): enough to recompute the section's hash and compare it on chain. */
export type DppAnchor = {
  status: "unissued" | "pending" | "anchored";
  chainId: number | null;
  contractAddress: string | null;
  tokenId: string | null;
  version: number | null;
  dataHash: string | null;
  transactionHash: string | null;
  hashRule: string;
};

export type Representation = "compressed" | "full";

/** The header of a product's passport, with the content it describes and the instant it last changed. */
export function dppHeader(config: Pick<Config, "publicBaseUrl" | "domains" | "backupOperatorUrl">, product: ProductRow, content: PassportContent, lastUpdate: Date): DppHeader {
  return {
    digitalProductPassportId: product.dpp_id,
    uniqueProductIdentifier: productDigitalLink(config, product) ?? productLinks(config, product.uid, brandAddressOf(product)).dpp_url,
    granularity: product.granularity,
    dppSchemaVersion: DPP_SCHEMA_VERSION,
    dppStatus: product.dpp_status,
    lastUpdate: lastUpdate.toISOString(),
    economicOperatorId: product.brand_economic_operator_id,
    facilityId: facilityIdOf(product),
    contentSpecificationIds: [content.schema],
    backupUrl: backupUrlOf(config, product.dpp_id),
  };
}

/** The maker's GS1 GLN (as its GS1 Digital Link URI, AI 414) or else its Open Supply Hub id; null when neither is known. */
function facilityIdOf(product: Pick<ProductRow, "factory_gln" | "factory_os_id">): string | null {
  if (product.factory_gln) return `https://id.gs1.org/414/${product.factory_gln}`;
  if (product.factory_os_id) return `https://opensupplyhub.org/facilities/${product.factory_os_id}`;
  return null;
}

/** The last change of a passport: its latest anchored version, or a later status change, or its creation. */
export function lastUpdateOf(product: ProductRow, versions: VersionRecord[]): Date {
  const instants = [product.created_at, ...versions.map((v) => v.valid_from), ...(product.dpp_status_changed_at ? [product.dpp_status_changed_at] : [])];
  return new Date(Math.max(...instants.map((at) => new Date(at).getTime())));
}

export function anchorOf(product: ProductRow, versions: VersionRecord[]): DppAnchor {
  const latest = versions.at(-1);
  return {
    status: latest ? "anchored" : product.passport_status === "pending" || product.passport_status === "minted" ? "pending" : "unissued",
    chainId: product.passport_chain_id,
    contractAddress: product.passport_contract,
    tokenId: product.passport_token_id,
    version: latest?.version ?? null,
    dataHash: latest?.data_hash ?? null,
    transactionHash: latest?.tx_hash ?? null,
    hashRule: "keccak256(RFC 8785 canonical JSON of the content section)",
  };
}

/**
 * The passport's registration at the EU registry (our extension, beside `anchor`; not part of the hash): the
 * registration of the version served, or null when it was never asked for (docs/registry.md).
 */
export type DppRegistration = {
  version: number;
  state: "queued" | "registered" | "failed";
  registryId: string | null;
  registeredAt: string | null;
  proof: { timestamp: string; dataHash: string; jwt: string } | null;
  error: string | null;
} | null;

/** The passport in the asked representation: header, content section (compressed) or elements (full), anchor, registration. */
export function representDpp(header: DppHeader, content: PassportContent, anchor: DppAnchor, representation: Representation, translations: Translations, registration: DppRegistration = null) {
  if (representation === "full") {
    const elements: DataElement[] = fullElements(content, translations);
    return { ...header, elements, anchor, registration };
  }
  return { ...header, [content.schema]: content, anchor, registration };
}
