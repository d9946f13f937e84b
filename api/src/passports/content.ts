// The anchored part of a passport: its content as canonical JSON (RFC 8785), hashed with keccak256.
// Anyone can recompute `dataHash` from the `content` object the public API serves and compare it with the chain.
import canonicalize from "canonicalize";
import createKeccakHash from "keccak";
import type { TextileData } from "./textile";

type Gs1Identifiers = { gtin: string; lot: string; serial: string };

/**
 * keccak256 of a text's UTF-8 bytes, 0x-prefixed: what ethers' `keccak256(toUtf8Bytes(text))` gives, computed by the
 * `keccak` package's native add-on (prebuilt, with a JavaScript fallback), which hashes a passport's content in a
 * tenth of the time of ethers' JavaScript one: every public read of a passport hashes its content again.
 */
function keccakOfText(text: string): string {
  return `0x${createKeccakHash("keccak256").update(text, "utf8").digest("hex")}`;
}

/** Token id of a product UID: keccak256 of the canonical (upper-case) UID, as a decimal string. */
export function tokenIdOf(uid: string): string {
  return BigInt(keccakOfText(uid.toUpperCase())).toString();
}

/** keccak256 of the RFC 8785 canonical JSON of `content`. */
export function dataHashOf(content: unknown): string {
  const json = canonicalize(content);
  if (json === undefined) throw new Error("passport content cannot be canonicalised");
  return keccakOfText(json);
}

export type FiberShare = { fiber: string; percent: number };
export type Certification = { code: string; issuer: string; number: string; valid_until: string; evidence_url?: string };

/** Where each value a brand may leave out came from: declared by the brand, or filled in at registration. */
export type Provenance = {
  fiber_composition: "declared" | "derived_from_fabric_type" | "unknown";
  care_instructions: "declared" | "brand_default" | "category_default" | "unknown";
  country_of_manufacture: "declared" | "factory" | "brand_default" | "unknown";
};

export type Granularity = "model" | "batch" | "item";

/** A passport this one inherits from, pinned to the version (its data hash) current when this one was made. */
export type ParentRef = { id: string; uid: string; data_hash: string };

/**
 * Which passport this is (EN 18219/18223): its persistent id, its granularity and, for a batch or an item, the model
 * and batch it belongs to, with the fields it took from them. Fixed when the passport is made.
 */
export type PassportIdentity = {
  id: string;
  granularity: Granularity;
  model?: ParentRef;
  batch?: ParentRef;
  /** Field (as named in this content) → the level its value was taken from. */
  inherited?: Record<string, "model" | "batch">;
};

/** What a product row keeps of its identity and lineage (migration 033). */
export type Lineage = { model?: ParentRef; batch?: ParentRef; inherited?: Record<string, "model" | "batch"> };

export const CONTENT_SCHEMAS = [
  "passport-registry/dpp-content/1",
  "passport-registry/dpp-content/2",
  "passport-registry/dpp-content/3",
  "passport-registry/dpp-content/4",
] as const;

/**
 * Version 1: products registered before provenance was recorded; their anchored hashes must keep matching, so their
 * content keeps this shape. Version 2 adds `provenance`, anchored with the values it describes. Version 3 (EN 18223)
 * adds `passport`: the persistent id, the granularity and the links to model and batch.
 */
export type PassportContent = {
  schema: (typeof CONTENT_SCHEMAS)[number];
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
  passport?: PassportIdentity;
  /** Version 4: the textile section (passports/textile.ts), present only where the brand gave one. */
  textile?: TextileData;
};

/** Builds the content object in one fixed shape, so the same product always hashes the same. */
export function buildPassportContent(input: Omit<PassportContent, "schema">): PassportContent {
  const { provenance, passport, textile, ...values } = input;
  // No `provenance` key at all in version 1, not even an undefined one; no `passport` key before version 3, no
  // `textile` key unless the passport has the section (version 4).
  if (!provenance) return { schema: "passport-registry/dpp-content/1", ...values, uid: input.uid.toUpperCase() };
  if (!passport) return { schema: "passport-registry/dpp-content/2", ...values, uid: input.uid.toUpperCase(), provenance };
  if (!textile) return { schema: "passport-registry/dpp-content/3", ...values, uid: input.uid.toUpperCase(), provenance, passport };
  return { schema: "passport-registry/dpp-content/4", ...values, uid: input.uid.toUpperCase(), provenance, passport, textile };
}

/** The passport section of content version 3, in one fixed shape (no undefined keys). */
export function passportIdentity(id: string, granularity: Granularity, lineage: Lineage | null | undefined): PassportIdentity {
  return {
    id,
    granularity,
    ...(lineage?.model ? { model: lineage.model } : {}),
    ...(lineage?.batch ? { batch: lineage.batch } : {}),
    ...(lineage?.inherited && Object.keys(lineage.inherited).length > 0 ? { inherited: lineage.inherited } : {}),
  };
}

/** The RFC 8785 canonical JSON of a content object: the exact bytes its data hash is computed over. */
export function canonicalContent(content: PassportContent): string {
  const json = canonicalize(content);
  if (json === undefined) throw new Error("passport content cannot be canonicalised");
  return json;
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
  /** Migration 033: the content version the row's passport uses (3 adds `passport`), its id, granularity and lineage. */
  content_version?: number;
  dpp_id?: string;
  granularity?: Granularity;
  lineage?: Lineage | null;
  /** Migration 036: the textile section, null when the brand gave none. */
  textile?: TextileData | null;
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
    ...(row.content_version === 3 && row.provenance && row.dpp_id ? { passport: passportIdentity(row.dpp_id, row.granularity ?? "item", row.lineage) } : {}),
    ...(row.content_version === 3 && row.textile ? { textile: row.textile } : {}),
  });
}
