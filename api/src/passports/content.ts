// The anchored part of a passport: its content as canonical JSON (RFC 8785), hashed with keccak256.
// Anyone can recompute `dataHash` from the `content` object the public API serves and compare it with the chain.
import canonicalize from "canonicalize";
import { keccak256, toUtf8Bytes } from "ethers";

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

export type PassportContent = {
  schema: "passport-registry/dpp-content/1";
  uid: string;
  brand: { slug: string; name: string };
  product: { sku: string; name: string; category: string; fabric_type: string | null; description: string | null };
  fiber_composition: FiberShare[];
  certifications: Certification[];
  manufacturer: { factory_id: number; name: string; city: string; country: string } | null;
  country_of_manufacture: string | null;
  carbon: { kg_co2e: number; rating: string };
  care_instructions: string;
};

/** Builds the content object in one fixed shape, so the same product always hashes the same. */
export function buildPassportContent(input: Omit<PassportContent, "schema">): PassportContent {
  return { schema: "passport-registry/dpp-content/1", ...input, uid: input.uid.toUpperCase() };
}
