// A product's GS1 Digital Link URI: on its brand's address (links.ts), so the QR code, the tag and the resolver's
// linkset anchor name the same URI.
import type { Config } from "../config";
import { brandAddressOf, brandBaseUrl } from "../links";
import { digitalLinkPath } from "./digital-link";

type DigitalLinkRow = { gtin: string | null; lot: string | null; serial: string | null; brand_slug: string; brand_custom_domain: string | null };

/** The product's Digital Link URI when it has a GTIN; null otherwise. */
export function productDigitalLink(config: Pick<Config, "publicBaseUrl" | "domains">, row: DigitalLinkRow): string | null {
  if (!row.gtin) return null;
  return `${brandBaseUrl(config, brandAddressOf(row))}${digitalLinkPath({ gtin: row.gtin, lot: row.lot, serial: row.serial })}`;
}
