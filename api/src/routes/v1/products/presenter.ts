// Shapes v1 product JSON: spec 2.4 (registration), 2.5 (certificate record) and 2.7 (enrichment).
import type { Config } from "../../../config";
import type { Provenance } from "../../../passports/content";
import { describeComposition } from "../../../passports/fibres";
import { CARE_NOT_DECLARED, UNKNOWN_COUNTRY } from "../../../products/defaults";
import type { Warranty } from "../../../products/warranty";
import { escapeHtml } from "../../../pages/html";
import { brandAddressOf, productLinks, type BrandAddress } from "../../../links";
import { buildPublicRecord } from "../../../passports/public-record";
import type { PublicPassport } from "../../../passports/public-passport";
import type { ProductTranslations } from "../../../i18n/product-texts";
import type { CreatedProduct, CreateProductInput, ProductRow } from "../../../products/service";

export function embedSnippet(uid: string): string {
  return `<div class="service-badge" data-uid="${escapeHtml(uid)}"></div>`;
}

export function presentRegistration(config: Config, input: CreateProductInput, created: CreatedProduct, brand: BrandAddress | null) {
  return {
    uid: created.uid,
    product_id: created.productId,
    sku: input.sku,
    name: input.name.trim(),
    ...productLinks(config, created.uid, brand),
    embed_snippet: embedSnippet(created.uid),
    carbon_rating: created.carbonRating,
    carbon_kg: created.carbonKg,
  };
}

/**
 * Products registered before provenance was recorded: a value they have was declared (nothing was filled in then),
 * an empty one is unknown.
 */
function provenanceOf(product: ProductRow): Provenance {
  if (product.provenance) return product.provenance;
  return {
    fiber_composition: product.fiber_composition.length > 0 ? "declared" : "unknown",
    care_instructions: product.care_instructions.trim() ? "declared" : "unknown",
    country_of_manufacture: product.country_of_manufacture?.trim() ? "declared" : "unknown",
  };
}

/** `translations`: the brand's translations of the name and description (presentation, not anchored). */
export function presentCertificateRecord(config: Config, passport: PublicPassport, translations: ProductTranslations = {}) {
  const { product } = passport;
  const chain = buildPublicRecord(config, passport).blockchain;
  return {
    uid: product.uid,
    product: {
      id: product.id,
      title: product.name,
      sku: product.sku,
      price: Number(product.price),
      currency: product.currency,
      category: product.category,
      fabric_type: product.fabric_type,
      description: product.description,
      factory_id: product.factory_id === null ? null : Number(product.factory_id),
      created_at: new Date(product.created_at).toISOString(),
      gtin: product.gtin,
      lot: product.lot,
      serial: product.serial,
      translations,
    },
    dpp_url: productLinks(config, product.uid, brandAddressOf(product)).dpp_url,
    blockchain: {
      verified: chain.verified,
      tx_hash: chain.tx_hash,
      network: chain.network,
      status: chain.status,
      token_id: chain.token_id,
      contract: chain.contract,
      explorer_url: chain.explorer_url,
    },
    carbon_footprint_kg: Number(product.carbon_kg),
    certifications: product.certifications,
    // Spec 2.5 types these as strings and a two-letter code: what nobody declared or filled in is said, not left
    // empty, and `provenance` tells a declared value from a default.
    fiber_composition: describeComposition(product.fiber_composition),
    care_instructions: product.care_instructions.trim() || CARE_NOT_DECLARED,
    country_of_manufacture: product.country_of_manufacture?.trim() || UNKNOWN_COUNTRY,
    provenance: provenanceOf(product),
  };
}

export function presentEnrichment(config: Config, product: ProductRow, warranty: Warranty) {
  return {
    uid: product.uid,
    carbon_kg: Number(product.carbon_kg),
    carbon_rating: product.carbon_rating.trim(),
    warranty_months: warranty.months,
    warranty_type: warranty.type,
    warranty_terms_en: warranty.termsEn,
    dpp_url: productLinks(config, product.uid, brandAddressOf(product)).dpp_url,
  };
}
