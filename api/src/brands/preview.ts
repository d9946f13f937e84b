// What the brand editor's live preview shows: the scan page of the brand's newest product, or of a sample product
// while the brand has none, in the draft branding (brand-editor.ts).
import { requiredConfirmations } from "../chain/finality";
import type { Config } from "../config";
import type { AppDeps } from "../deps";
import { productLinks } from "../links";
import { passportPage } from "../passports/passport-page";
import type { PublicRecord } from "../passports/public-record";

export type PreviewSubject = { record: PublicRecord; pageUrl: string; pdfUrl: string | null; sample: boolean };

/** The newest product's passport as its scan page shows it, or the sample when `uid` is null. */
export async function previewSubject(deps: AppDeps, brand: { slug: string; name: string }, uid: string | null): Promise<PreviewSubject> {
  if (uid === null) return { record: sampleRecord(deps.config, brand), pageUrl: `${deps.config.publicBaseUrl}/scan/SAMPLE`, pdfUrl: null, sample: true };
  const view = await passportPage(deps, uid);
  return { record: view.record, pageUrl: view.record.links.scan_url, pdfUrl: view.pdfUrl, sample: false };
}

/** A plausible, clearly invented product of the brand, not yet certified: enough to judge colours and text. */
export function sampleRecord(config: Config, brand: { slug: string; name: string }): PublicRecord {
  const uid = "SAMPLE-0000";
  return {
    uid,
    content: {
      schema: "passport-registry/dpp-content/2",
      uid,
      brand: { slug: brand.slug, name: brand.name },
      product: { sku: "SAMPLE", name: "Sample organic cotton shirt", category: "shirt", fabric_type: "cotton", description: "A sample product: your own products appear here once registered." },
      fiber_composition: [
        { fiber: "cotton", percent: 95 },
        { fiber: "elastane", percent: 5 },
      ],
      certifications: [],
      manufacturer: null,
      country_of_manufacture: null,
      carbon: { kg_co2e: 4.2, rating: "B" },
      care_instructions: "Machine wash cold; line dry.",
      provenance: { fiber_composition: "declared", care_instructions: "declared", country_of_manufacture: "unknown" },
    },
    manufacturer: null,
    supply_chain_events: [],
    blockchain: {
      verified: false,
      status: "unissued",
      network: config.networkName,
      chain_id: config.chainId,
      contract: null,
      token_id: "0",
      tx_hash: null,
      explorer_url: null,
      block_number: null,
      confirmations: 0,
      required_confirmations: requiredConfirmations(config.confirmations),
      data_hash: null,
      data_hash_version: null,
      computed_data_hash: "0x",
      data_hash_matches: null,
      hash_rule: "keccak256(RFC 8785 canonical JSON of `content`)",
      passport_status: null,
      nfc_tag_hash: null,
    },
    textile_stages: [],
    links: productLinks(config, uid, null),
    lineage: { granularity: "item", model: null, batch: null, inherited: [] },
  };
}

