// The anchored part of a passport: its content as canonical JSON (RFC 8785), hashed with keccak256.
// Anyone can recompute `dataHash` from the `content` object the public API serves and compare it with the chain.
import canonicalize from "canonicalize";
import { keccak256, toUtf8Bytes } from "ethers";

type Gs1Identifiers = { gtin: string; lot: string; serial: string };

/** Token id of a product UID: keccak256 of the canonical (upper-case) UID, as a decimal string. */
export function tokenIdOf(uid: string): string {
  return BigInt(keccak256(toUtf8Bytes(uid.toUpperCase()))).toString();
}

/** keccak256 of the RFC 8785 canonical JSON of `content`. */
export function dataHashOf(content: unknown): string {
  const json = canonicalize(content);
  if (json === undefined) throw new Error("passport content cannot be canonicalised");
  return keccak256(toUtf8Bytes(json));
}

export type FiberShare = { fiber: string; percent: number };
export type Certification = { code: string; issuer: string; number: string; valid_until: string; evidence_url?: string };

/** Where each value a brand may leave out came from: declared by the brand, or filled in at registration. */
export type Provenance = {
  fiber_composition: "declared" | "derived_from_fabric_type" | "unknown";
  care_instructions: "declared" | "brand_default" | "category_default" | "unknown";
  country_of_manufacture: "declared" | "factory" | "brand_default" | "unknown";
};

/**
 * Version 1: products registered before provenance was recorded; their anchored hashes must keep matching, so their
 * content keeps this shape. Version 2 adds `provenance`, anchored with the values it describes.
 */
export type PassportContent = {
  schema: "passport-registry/dpp-content/1" | "passport-registry/dpp-content/2";
  uid: string;
  brand: { slug: string; name: string };
  /** `gtin` (GTIN-14), `lot` and `serial` only when the product has them: content without them hashes as before. */
  product: { sku: string; name: string; category: string; fabric_type: string | null; description: string | null } & Partial<Gs1Identifiers>;
  fiber_composition: FiberShare[];
  certifications: Certification[];
  manufacturer: { factory_id: number; name: string; city: string; country: string } | null;
  country_of_manufacture: string | null;
  carbon: { kg_co2e: number; rating: string };
  care_instructions: string;
  provenance?: Provenance;
};

/** Builds the content object in one fixed shape, so the same product always hashes the same. */
export function buildPassportContent(input: Omit<PassportContent, "schema">): PassportContent {
  const { provenance, ...values } = input;
  // No `provenance` key at all in version 1, not even an undefined one.
  if (!provenance) return { schema: "passport-registry/dpp-content/1", ...values, uid: input.uid.toUpperCase() };
  return { schema: "passport-registry/dpp-content/2", ...values, uid: input.uid.toUpperCase(), provenance };
}

/** The content of a product's passport, from its stored row: the one builder used at mint and when serving. */
export function passportContentFor(row: {
  uid: string;
  sku: string;
  name: string;
  category: string;
  fabric_type: string | null;
  description: string | null;
  factory_id: string | number | null;
  fiber_composition: FiberShare[];
  certifications: Certification[];
  care_instructions: string;
  country_of_manufacture: string | null;
  /** Null for products registered before provenance was recorded (content version 1). */
  provenance?: Provenance | null;
  carbon_kg: string | number;
  carbon_rating: string;
  /** GS1 identifiers (migration 026); absent or null when the product has none. */
  gtin?: string | null;
  lot?: string | null;
  serial?: string | null;
  brand_slug: string;
  brand_name: string;
  factory_name: string | null;
  factory_city: string | null;
  factory_country: string | null;
}): PassportContent {
  return buildPassportContent({
    uid: row.uid,
    brand: { slug: row.brand_slug, name: row.brand_name },
    product: {
      sku: row.sku,
      name: row.name,
      category: row.category,
      fabric_type: row.fabric_type,
      description: row.description,
      ...(row.gtin ? { gtin: row.gtin } : {}),
      ...(row.gtin && row.lot ? { lot: row.lot } : {}),
      ...(row.gtin && row.serial ? { serial: row.serial } : {}),
    },
    fiber_composition: row.fiber_composition,
    certifications: row.certifications,
    manufacturer:
      row.factory_id === null || row.factory_name === null
        ? null
        : {
            factory_id: Number(row.factory_id),
            name: row.factory_name,
            city: row.factory_city ?? "",
            country: (row.factory_country ?? "").trim(),
          },
    country_of_manufacture: row.country_of_manufacture?.trim() ?? null,
    carbon: { kg_co2e: Number(row.carbon_kg), rating: row.carbon_rating.trim() },
    care_instructions: row.care_instructions,
    ...(row.provenance ? { provenance: row.provenance } : {}),
  });
}
