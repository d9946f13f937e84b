// Issue 16: a passport's UNTP Digital Product Passport credential (VC 2.0, UNTP DPP 0.6.0), signed as VC-JOSE with the
// service's key. What each field is filled from, and what stays empty, is in docs/interop.md.
import { CompactSign } from "jose";
import { visiblePublicRecord } from "../access/reads";
import type { Reader } from "../access/readers";
import type { AccessBlock, ReadOperation } from "../access/service";
import type { Config } from "../config";
import type { AppDeps } from "../deps";
import { NotFoundError } from "../errors";
import { findFactory } from "../factories/factories.repo";
import { certificationsFromMask } from "../factories/reputation";
import { productDigitalLink } from "../gs1/links";
import { brandAddressOf, brandProfileUrl, certificatePdfUrl } from "../links";
import type { IndexerState } from "../onchain/indexer-state.repo";
import { fromViews } from "../onchain/views";
import type { Certification } from "../passports/content";
import { publicPassport, type PublicPassport } from "../passports/public-passport";
import { buildPublicRecord, type ParentLink, type PublicRecord, type RecordLineage } from "../passports/public-record";
import { CERTIFICATION_STANDARDS, conformityTopicOf } from "./certifications";
import { REGISTRY_CONTEXT_URL, REGISTRY_VOCAB, UNTP_DPP_CONTEXT, VC_V2_CONTEXT } from "./contexts";
import { credentialSigningKey } from "./signing-key";
import {
  commodityClassifications,
  materialClaims,
  pefClaim,
  stageConfirmations,
  taricUrl,
  untpCharacteristics,
  untpCircularity,
  untpFibres,
  untpStage,
  untpSubstances,
} from "./textile";

// What an offline verifier (the archive) needs besides the credential: the DID document and the contexts.
export { serviceDidDocument } from "./signing-key";
export { offlineDocumentLoader, REGISTRY_CONTEXT_URL } from "./contexts";

export type PassportCredential = {
  /** The unsigned credential (application/ld+json body). */
  credential: Record<string, unknown>;
  /** The same credential signed as a compact JWS (application/vc+jwt body). */
  jwt: string;
};

/** Everything a credential is built from: the passport as the public API shows it, and its maker's certifications. */
export type CredentialInput = {
  passport: PublicPassport;
  record: PublicRecord;
  /** Certification codes the on-chain factory registry records for the maker; empty when it is not registered. */
  factoryCertifications: string[];
  /** Whether the registry marks the maker verified. */
  factoryVerified: boolean;
};

/** The carbon figure's method, as docs/brand-api.md ("Carbon model") states it. */
export const CARBON_METHOD =
  "Estimated, not measured: typical finished weight of the garment category x emission factor of the fabric x 1.15 " +
  "(cut-and-sew waste) + 0.5 kg CO2e for assembly; indicative average factors, fibre to finished garment.";

/** The method of an estimate the textile section gives that is not our formula's figure. */
export const TEXTILE_ESTIMATE_METHOD = "Estimated, not measured: the figure the passport's textile section gives as an estimate (docs/textile.md).";

/** Whether the passport is minted: only then is there a chain anchor to put in a credential. */
export function isMinted(passport: PublicPassport): boolean {
  return passport.product.passport_status === "minted" && passport.product.passport_tx_hash !== null;
}

/** The credential's own address, on the service's main address (the issuer's, whatever host served it). */
export function credentialUrl(config: Pick<Config, "publicBaseUrl">, uid: string): string {
  return `${config.publicBaseUrl}/api/dpp/${uid}/credential`;
}

/**
 * The credential of a minted passport by UID; throws NotFoundError when there is no minted passport. `view`: as
 * credentialInput's; without it the credential is whole (the brand's own archive).
 */
export async function passportCredential(deps: AppDeps, uid: string, state?: IndexerState, view?: ReaderView): Promise<PassportCredential> {
  const input = await credentialInput(deps, uid, state, view);
  const key = await credentialSigningKey(deps.config);
  const credential = buildCredential(deps.config, key.did, input);
  return { credential, jwt: await signCredential(deps.config, credential) };
}

/** Whose view a credential or an export is built for (docs/access.md), and the operation its access log entry names. */
export type ReaderView = { reader: Reader; operation: ReadOperation };

/**
 * The passport, its public record and its maker's registry certifications; NOT_FOUND unless minted. `state`: the
 * indexer's state when the caller has read it already. `view`: the record as that reader may see it (elements above
 * its class absent, listed in `record.access.withheld`; a read above the public logged); every route passes one.
 * Without it the record is whole: only for the brand's own archive and the operator's export.
 */
export async function credentialInput(deps: AppDeps, uid: string, state?: IndexerState, view?: ReaderView): Promise<CredentialInput> {
  const passport = await publicPassport(deps, uid, state);
  if (!isMinted(passport)) throw new NotFoundError("Passport");
  // A maker the brand only declared (it never confirmed making the product) lends the product none of its registry
  // claims, as the public record never shows it verified: any brand could otherwise name a certified factory.
  const factoryId = passport.product.factory_id === null || !passport.makerConfirmed ? undefined : Number(passport.product.factory_id);
  // As publicPassport reads it: with the indexer's views not yet published, the credential is served without the
  // registry's claims rather than not at all.
  const factory = factoryId === undefined ? undefined : await fromViews(() => findFactory(deps.db, deps.config.onchainSchema, factoryId)).catch(() => undefined);
  const whole = buildPublicRecord(deps.config, passport);
  const record = view ? ({ manufacturer: null, ...(await visiblePublicRecord(deps, view.reader, whole, view.operation)) } as PublicRecord & { access: AccessBlock }) : whole;
  // A maker withheld from this reader lends the product none of its registry claims either: they would name it.
  const makerShown = record.manufacturer !== null || whole.manufacturer === null;
  return {
    passport,
    record,
    factoryCertifications: factory?.registered && makerShown ? certificationsFromMask(factory.certificationsMask) : [],
    factoryVerified: (makerShown && factory?.verified) ?? false,
  };
}

/** Signs the credential as VC-JOSE: a compact JWS whose payload is the credential itself. */
export async function signCredential(config: Pick<Config, "publicBaseUrl" | "credentials">, credential: Record<string, unknown>): Promise<string> {
  const key = await credentialSigningKey(config);
  return new CompactSign(new TextEncoder().encode(JSON.stringify(credential)))
    .setProtectedHeader({ alg: key.alg, typ: "vc+jwt", cty: "vc", kid: key.keyId })
    .sign(key.privateKey);
}

/** The UNTP DPP 0.6.0 credential of a minted passport (unsigned). */
export function buildCredential(config: Pick<Config, "publicBaseUrl" | "domains">, did: string, input: CredentialInput): Record<string, unknown> {
  const { passport, record } = input;
  const { product } = passport;
  const { content } = record;
  const uid = product.uid;
  const id = credentialUrl(config, uid);
  const brand = brandAddressOf(product);
  const digitalLink = productDigitalLink(config, product);
  const mintedAt = passport.indexed?.mintedAt ?? product.passport_minted_at ?? new Date(0);
  const { lineage } = record;
  // The item's own lot, else the lot of the batch it belongs to; a batch passport's is its own.
  const batchNumber = product.lot ?? lineage.batch?.lot ?? null;
  // Content version 4 (docs/textile.md); each part is optional.
  const textile = content.textile;
  const characteristics = textile ? untpCharacteristics(textile) : undefined;
  const circularity = textile ? untpCircularity(textile) : undefined;
  const categories = commodityClassifications(textile?.commodity_code);
  const confirmations = stageConfirmations(record);
  // The carbon figure the passport gives, named with its method: the textile section's estimate, else ours (both are
  // the service's estimate). A brand's PEF study is its own claim (conformityClaim), not this estimate.
  const estimate = textile?.carbon?.method === "estimate" ? textile.carbon.kg_co2e : content.carbon.kg_co2e;
  // Built for a reader (credentialInput's view): the elements above its class are absent; UNTP has no term for what
  // was left out, so one further-information link names them, to the record that lists them too (docs/access.md).
  const withheld = (record as { access?: AccessBlock }).access?.withheld ?? [];

  return {
    "@context": [VC_V2_CONTEXT, UNTP_DPP_CONTEXT, REGISTRY_CONTEXT_URL],
    type: ["VerifiableCredential", "DigitalProductPassport"],
    id,
    name: `Digital Product Passport: ${content.product.name}`,
    // The service signs on the brand's behalf: it is the issuer; the brand is the product's producer (below).
    issuer: { type: ["CredentialIssuer"], id: did, name: `Passport Registry (${new URL(config.publicBaseUrl).host})` },
    validFrom: new Date(mintedAt).toISOString(),
    credentialSubject: {
      type: ["ProductPassport"],
      id: record.links.dpp_url,
      product: {
        type: ["Product"],
        id: digitalLink ?? record.links.scan_url,
        name: content.product.name,
        ...(content.product.description ? { description: content.product.description } : {}),
        ...(product.gtin
          ? { registeredId: product.gtin, idScheme: { type: ["IdentifierScheme"], id: "https://id.gs1.org/01/", name: "Global Trade Item Number (GTIN)" } }
          : { registeredId: uid, idScheme: { type: ["IdentifierScheme"], id: `${config.publicBaseUrl}/api/dpp/`, name: "Passport Registry product UID" } }),
        // A model or batch passport covers many items: only an item has a serial number.
        ...(lineage.granularity === "item" ? { serialNumber: product.serial ?? uid } : {}),
        ...(batchNumber ? { batchNumber } : {}),
        ...(textile?.images?.length ? { productImage: { linkURL: textile.images[0], linkName: `${content.product.name}: product image` } } : {}),
        ...(categories.length > 0
          ? {
              productCategory: categories.map((c) => ({
                type: ["Classification"],
                id: taricUrl(c.code),
                code: c.code,
                name: `${c.scheme} ${c.code}`,
                schemeName: c.schemeName,
              })),
            }
          : {}),
        ...(textile?.production_date ? { productionDate: textile.production_date } : {}),
        garmentCategory: content.product.category,
        ...(content.product.fabric_type ? { fabricType: content.product.fabric_type } : {}),
        careInstructions: content.care_instructions,
        ...(characteristics ? { characteristics } : {}),
        furtherInformation: [
          link(record.links.scan_url, "Passport page", "https://gs1.org/voc/pip"),
          link(record.links.certificate_url, "Certificate page", "https://gs1.org/voc/certificationInfo"),
          link(certificatePdfUrl(config, uid, brand), "Certificate (PDF)", "https://gs1.org/voc/certificationInfo"),
          // For a reader of UNTP's terms alone: the passports this one was made from (modelPassport and batchPassport
          // below say the same with their persistent ids, pinned versions and inherited fields).
          ...(lineage.model ? [link(lineage.model.dpp_url, `Model passport ${lineage.model.uid}`, `${REGISTRY_VOCAB}ModelPassport`)] : []),
          ...(lineage.batch ? [link(lineage.batch.dpp_url, `Batch passport ${lineage.batch.uid}`, `${REGISTRY_VOCAB}BatchPassport`)] : []),
          ...(withheld.length > 0
            ? [link(record.links.dpp_url, `Elements withheld from this reader by the passport's access classes: ${withheld.join(", ")}`, `${REGISTRY_VOCAB}WithheldElements`)]
            : []),
        ],
        producedByParty: { id: brandProfileUrl(config, brand), name: content.brand.name },
        ...(content.manufacturer
          ? {
              producedAtFacility: {
                id: `${config.publicBaseUrl}/api/factory/${content.manufacturer.factory_id}/reputation`,
                name: content.manufacturer.name,
                registeredId: String(content.manufacturer.factory_id),
              },
            }
          : {}),
        // ZZ is how the record says nobody gave a country (ISO 3166 user-assigned "unknown"): left out here.
        ...(content.country_of_manufacture && content.country_of_manufacture !== "ZZ" ? { countryOfProduction: content.country_of_manufacture } : {}),
      },
      granularityLevel: lineage.granularity,
      ...(content.passport ? { digitalProductPassportId: content.passport.id } : {}),
      ...(lineage.model ? { modelPassport: parentPassport(lineage.model, lineage, "model") } : {}),
      ...(lineage.batch ? { batchPassport: parentPassport(lineage.batch, lineage, "batch") } : {}),
      conformityClaim: [
        ...content.certifications.map((certification, index) => productClaim(id, certification, index)),
        ...input.factoryCertifications.map((code) => factoryClaim(id, code, content.manufacturer?.name ?? "the maker", input.factoryVerified)),
        ...materialClaims(id, textile?.materials),
        ...pefClaim(id, textile?.carbon),
      ],
      // Untyped, as in UNTP's own sample: the 0.6.0 context defines no term for EmissionsPerformance,
      // TraceabilityPerformance, Material, Link or SecureLink, and a type it cannot expand is not valid JSON-LD.
      emissionsScorecard: {
        carbonFootprint: estimate,
        // Per item: the figure is kg CO2e for one garment.
        declaredUnit: "EA",
        operationalScope: "CradleToGate",
        // Category and fabric averages only: none of the figure comes from this product's own measurements.
        primarySourcedRatio: 0,
        carbonFootprintMethod: "estimate",
        // The A-D rating and the formula are those of our estimate's figure; another estimate has neither.
        ...(estimate === content.carbon.kg_co2e
          ? { carbonRating: content.carbon.rating, estimationMethod: CARBON_METHOD }
          : { estimationMethod: TEXTILE_ESTIMATE_METHOD }),
      },
      traceabilityInformation: [
        ...record.supply_chain_events.map((event) => ({
        valueChainProcess: event.stage,
        traceabilityEvent: [
          {
            linkURL: event.explorer_url,
            linkName: `${event.stage}${event.factory_name ? ` at ${event.factory_name}` : ""}${event.place ? `, ${event.place}` : ""}, recorded on chain`,
            // Not a UNTP traceability event credential: a transaction page, typed with a term of ours.
            linkType: `${REGISTRY_VOCAB}ChainTransaction`,
          },
        ],
        transactionHash: event.tx_hash,
        blockNumber: event.block_number,
        eventTime: event.time,
        detailsHash: event.details_hash,
      })),
        // Then the textile stages: each facility as the brand declared it, and its own confirmation where it gave one.
        ...(textile?.stages ?? []).map((stage, index) => untpStage(config, stage, confirmations.get(index))),
      ],
      ...(circularity ? { circularityScorecard: circularity } : {}),
      materialsProvenance: [
        ...((textile ? untpFibres(textile) : undefined) ??
          content.fiber_composition.map((share) => ({
            name: share.fiber,
            massFraction: Math.round(share.percent * 100) / 10_000,
          }))),
        ...(textile ? untpSubstances(config, content, textile) : []),
      ],
      chainAnchor: {
        type: ["ChainAnchor"],
        network: record.blockchain.network,
        chainId: record.blockchain.chain_id,
        ...(record.blockchain.contract ? { contractAddress: record.blockchain.contract } : {}),
        tokenId: record.blockchain.token_id,
        // What the chain holds now (the indexer's view), else what was sent at the mint.
        dataHash: record.blockchain.data_hash ?? product.passport_data_hash ?? passport.computedHash,
        dataHashMethod: "keccak256 of the RFC 8785 canonical JSON of `content` in the anchored record",
        anchoredRecord: record.links.dpp_url,
        ...(record.blockchain.tx_hash ? { transactionHash: record.blockchain.tx_hash } : {}),
        ...(record.blockchain.block_number !== null ? { blockNumber: record.blockchain.block_number } : {}),
        ...(record.blockchain.explorer_url ? { explorerURL: record.blockchain.explorer_url } : {}),
      },
    },
  };
}

/**
 * A model or batch passport this one was made from: its subject (its passport record's address, as its own
 * credential names it), its persistent id, the data hash of the version this one is pinned to, and the fields of
 * this passport's content taken from it.
 */
function parentPassport(parent: ParentLink, lineage: RecordLineage, level: "model" | "batch") {
  const fields = lineage.inherited.filter((entry) => entry.from === level).map((entry) => entry.field);
  return {
    id: parent.dpp_url,
    digitalProductPassportId: parent.dpp_id,
    ...(parent.name ? { name: parent.name } : {}),
    dataHash: parent.pinned_data_hash,
    ...(fields.length > 0 ? { inheritedFields: fields } : {}),
  };
}

function link(linkURL: string, linkName: string, linkType: string) {
  return { linkURL, linkName, linkType };
}

/** A certificate the brand declared for the product (anchored in its content). */
function productClaim(credentialId: string, certification: Certification, index: number) {
  const standard = CERTIFICATION_STANDARDS[certification.code];
  // An expired certificate is still listed (it was declared and anchored) but no longer claimed as met. Dates are
  // ISO days, so they compare as text; the last valid day counts as valid.
  const expired = certification.valid_until < new Date().toISOString().slice(0, 10);
  return {
    type: ["Claim", "Declaration"],
    id: `${credentialId}#product-certification-${index + 1}`,
    description:
      `${certification.code} certificate ${certification.number} issued by ${certification.issuer}, ` +
      `${expired ? "expired on" : "valid until"} ${certification.valid_until}; declared by the brand.`,
    ...(standard ? { referenceStandard: { type: ["Standard"], name: standard.name, issuingParty: standard.body } } : {}),
    conformance: !expired,
    conformityTopic: conformityTopicOf(certification.code),
    ...(certification.evidence_url
      ? { conformityEvidence: { linkURL: certification.evidence_url, linkName: `${certification.code} certificate ${certification.number}` } }
      : {}),
  };
}

/** A certification the on-chain factory registry records for the product's maker. */
function factoryClaim(credentialId: string, code: string, factoryName: string, verified: boolean) {
  const standard = CERTIFICATION_STANDARDS[code];
  return {
    type: ["Claim", "Declaration"],
    id: `${credentialId}#factory-certification-${encodeURIComponent(code)}`,
    description:
      `${factoryName} holds ${code} certification, as recorded in the on-chain factory registry ` +
      `(the factory is ${verified ? "verified" : "not verified"} by the registry's administrators).`,
    ...(standard ? { referenceStandard: { type: ["Standard"], name: standard.name, issuingParty: standard.body } } : {}),
    conformance: true,
    conformityTopic: conformityTopicOf(code),
  };
}
