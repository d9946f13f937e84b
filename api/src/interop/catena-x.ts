// Issue 16: a passport as a Catena-X generic Digital Product Passport (io.catenax.generic.digital_product_passport
// 7.0.0). The model requires much that a garment passport does not hold (street addresses, volumes, recycled shares):
// such a value is a placeholder, and `additionalData` lists every one by JSON pointer, so no reader takes it for data.
import { createHash } from "node:crypto";
import type { Config } from "../config";
import { brandAddressOf, brandProfileUrl } from "../links";
import { describeComposition } from "../passports/fibres";
import { CATEGORY_WEIGHT_KG } from "../products/carbon";
import { CERTIFICATION_STANDARDS } from "./certifications";
import type { ParentLink, RecordLineage } from "../passports/public-record";
import { CARBON_METHOD, credentialUrl, TEXTILE_ESTIMATE_METHOD, type CredentialInput } from "./credential";
import { commodityClassifications, elementUrl, facilityUri, STAGE_NAMES, stageConfirmations, type StageConfirmationLike } from "./textile";
import type { TextileData } from "../passports/textile";

export const CATENA_X_SPEC_VERSION = "urn:io.catenax.generic.digital_product_passport:7.0.0";

/** What a required string holds when the service has no value for it (lower case: postcodes must be). */
export const UNKNOWN = "unknown";
/** A required date with no value: no expiry is recorded. */
const NO_DATE = "9999-12-31";

type Json = Record<string, unknown>;

/** The Catena-X DPP 7.0.0 document of a minted passport. */
export function buildCatenaXPassport(config: Pick<Config, "publicBaseUrl" | "domains">, input: CredentialInput): Json {
  const { passport, record } = input;
  const { product } = passport;
  const { content } = record;
  const placeholders: Placeholder[] = [];
  /** A value the model requires and the service does not have, recorded under its JSON pointer (and why, if useful). */
  const placeholder = <T>(pointer: string, value: T, reason?: string): T => {
    placeholders.push({ pointer, reason });
    return value;
  };
  const address = (pointer: string, place: { city?: string | null; country?: string | null }) => ({
    thoroughfare: { technicalKey: "OTHER", value: placeholder(`${pointer}/thoroughfare/value`, UNKNOWN), number: placeholder(`${pointer}/thoroughfare/number`, UNKNOWN) },
    locality: { technicalKey: "CITY", value: place.city ? place.city : placeholder(`${pointer}/locality/value`, UNKNOWN) },
    country: { shortName: place.country ? place.country : placeholder(`${pointer}/country/shortName`, "") },
    postCode: { technicalKey: "OTHER", value: placeholder(`${pointer}/postCode/value`, UNKNOWN) },
  });

  const brand = brandAddressOf(product);
  const brandUrl = brandProfileUrl(config, brand);
  const mintedAt = new Date(passport.indexed?.mintedAt ?? product.passport_minted_at ?? 0);
  const maker = content.manufacturer;
  const makerId = maker ? `${config.publicBaseUrl}/api/factory/${maker.factory_id}/reputation` : undefined;
  const facilities = maker
    ? [{ facilityIdentification: makerId, facilityAddress: address("/operation/manufacturing/facilities/0/facilityAddress", { city: maker.city, country: maker.country }) }]
    : [];
  const { lineage } = record;
  const batchId = lineage.granularity === "model" ? null : (product.lot ?? lineage.batch?.lot ?? lineage.batch?.uid ?? null);
  const weightKg = CATEGORY_WEIGHT_KG[content.product.category.trim().toLowerCase()];
  const weight = (pointer: string) =>
    weightKg === undefined ? { value: placeholder(`${pointer}/value`, 0), unit: "unit:kilogram" } : { value: weightKg, unit: "unit:kilogram" };
  // Content version 4 (docs/textile.md); each part is optional.
  const textile: TextileData = content.textile ?? {};
  const confirmations = stageConfirmations(record);
  const estimateKg = textile.carbon?.method === "estimate" ? textile.carbon.kg_co2e : content.carbon.kg_co2e;
  const ours = estimateKg === content.carbon.kg_co2e;

  const document: Json = {
    metadata: {
      version: String(record.blockchain.data_hash_version ?? 1),
      passportStatus: "approved",
      expirationDate: placeholder("/metadata/expirationDate", NO_DATE),
      issueDate: mintedAt.toISOString().slice(0, 10),
      passportIdentifier: `urn:uuid:${nameBasedUuid(record.links.dpp_url)}`,
      predecessor: { applicable: false },
      // The same passport in another format, served by the same service; the chain anchor outlives both.
      backupReference: credentialUrl(config, product.uid),
      language: "en",
      economicOperator: {
        economicOperatorIdentification: brandUrl,
        economicOperatorNames: [content.brand.name],
        economicOperatorAddress: address("/metadata/economicOperator/economicOperatorAddress", {}),
        economicOperatorContact: { website: brandUrl },
      },
      specVersion: CATENA_X_SPEC_VERSION,
    },
    identification: {
      // Only an item is a part instance; an item's batch is its own lot, else the lot (or UID) of its batch passport.
      ...(lineage.granularity === "item" ? { serialInformation: [{ key: "partInstanceId", value: product.serial ?? product.uid }] } : {}),
      ...(batchId ? { batchInformation: [{ key: "batchId", value: batchId }] } : {}),
      partTypeInformation: { manufacturerPartId: content.product.sku, nameAtManufacturer: content.product.name },
      partClassification: [
        { standard: "Passport Registry garment category", id: content.product.category },
        ...commodityClassifications(textile.commodity_code).map((c) => ({ standard: c.schemeName, id: c.code })),
      ],
      productImages: (textile.images ?? []).map((url, index) => ({ header: `Product image ${index + 1}`, contentType: "URL", content: url })),
      codes: [{ key: "UID", value: product.uid, description: "Passport Registry product UID" }, ...(product.gtin ? [{ key: "GTIN", value: product.gtin, description: "GTIN-14" }] : [])],
      dataCarriers: record.blockchain.nfc_tag_hash ? [{ carrierType: "NFC tag (NTAG 424 DNA)", carrierPositions: [] }] : [],
    },
    operation: {
      manufacturing: {
        facilities,
        // The brand places the garment on the market under its name: the manufacturer in the EU's sense.
        manufacturer: {
          manufacturerIdentification: brandUrl,
          manufacturerNames: [content.brand.name],
          manufacturerAddress: address("/operation/manufacturing/manufacturer/manufacturerAddress", {}),
          manufacturerContact: { website: brandUrl },
        },
        ...(textile.production_date ? { manufacturingDate: textile.production_date } : {}),
      },
      import: { applicable: placeholder("/operation/import/applicable", false) },
      extendedProducerResponsibilityScheme: { applicable: placeholder("/operation/extendedProducerResponsibilityScheme/applicable", false) },
    },
    // The block is spare parts with their suppliers' addresses: the passport names spare parts (otherCharacteristics)
    // but not who supplies them.
    handling: {
      applicable: placeholder("/handling/applicable", false, textile.repair?.spare_parts?.length ? "spare parts are listed in characteristics/otherCharacteristics; their suppliers are not known" : undefined),
    },
    characteristics: {
      lifespan: [],
      physicalDimension: {
        grossWeight: weight("/characteristics/physicalDimension/grossWeight"),
        grossVolume: { value: placeholder("/characteristics/physicalDimension/grossVolume/value", 0), unit: "unit:litre" },
        weight: weight("/characteristics/physicalDimension/weight"),
        volume: { value: placeholder("/characteristics/physicalDimension/volume/value", 0), unit: "unit:litre" },
      },
      physicalState: "solid",
      otherCharacteristics: [
        { otherCharacteristicName: "fibre composition", otherCharacteristicOutcome: describeComposition(content.fiber_composition) },
        { otherCharacteristicName: "care instructions", otherCharacteristicOutcome: content.care_instructions },
        ...(content.product.fabric_type ? [{ otherCharacteristicName: "fabric type", otherCharacteristicOutcome: content.product.fabric_type }] : []),
        ...(weightKg !== undefined ? [{ otherCharacteristicName: "weight basis", otherCharacteristicOutcome: "typical finished weight of the garment category (an estimate, not a measurement)" }] : []),
        ...textileCharacteristics(textile),
      ],
    },
    commercial: {
      purpose: [content.product.category],
      recallInformation: { applicable: placeholder("/commercial/recallInformation/applicable", false) },
    },
    sustainability: {
      productStatus: "original",
      productFootprint: {
        carbon: [
          {
            value: estimateKg,
            rulebook: [{ header: "Carbon model (estimate)", contentType: "text/plain", content: ours ? CARBON_METHOD : TEXTILE_ESTIMATE_METHOD }],
            lifecycle: "cradle-to-gate",
            unit: "kg CO2e per item",
            type: "Climate Change Total",
            ...(ours ? { performanceClass: content.carbon.rating } : {}),
            manufacturingPlant: facilities,
            declaration: [],
          },
          // The brand's own PEF study, as that study (its reference is the rulebook); its scope is the study's.
          ...(textile.carbon?.method === "pef_study"
            ? [
                {
                  value: textile.carbon.kg_co2e,
                  rulebook: [{ header: "Product Environmental Footprint study (the brand's)", contentType: "text/plain", content: textile.carbon.study_reference ?? "not given" }],
                  lifecycle: "as defined in the study named in the rulebook",
                  unit: "kg CO2e per item",
                  type: "Climate Change Total",
                  manufacturingPlant: facilities,
                  declaration: [],
                },
              ]
            : []),
        ],
      },
      reusability: { applicable: placeholder("/sustainability/reusability/applicable", false) },
      recycleabilityPerformance: textile.end_of_life?.recyclability
        ? { applicable: true, content: textile.end_of_life.recyclability }
        : { applicable: placeholder("/sustainability/recycleabilityPerformance/applicable", false) },
    },
    sources: [
      { header: "Anchored passport record (JSON)", category: "Link to Databases or Systems", contentType: "URL", content: record.links.dpp_url },
      { header: "UNTP Digital Product Passport credential", category: "Link to Databases or Systems", contentType: "URL", content: credentialUrl(config, product.uid) },
      { header: "Certificate page", category: "Certifications and Compliance", contentType: "URL", content: record.links.certificate_url },
      ...(lineage.model ? [{ header: `Model passport ${lineage.model.uid}`.slice(0, 100), category: "Link to Databases or Systems", contentType: "URL", content: lineage.model.dpp_url }] : []),
      ...(lineage.batch ? [{ header: `Batch passport ${lineage.batch.uid}`.slice(0, 100), category: "Link to Databases or Systems", contentType: "URL", content: lineage.batch.dpp_url }] : []),
      ...record.supply_chain_events.map((event) => ({
        header: `Supply-chain step ${event.stage} (on-chain transaction)`.slice(0, 100),
        category: "Supply Chain Information",
        contentType: "URL",
        content: event.explorer_url,
      })),
      ...textileSources(textile, confirmations),
    ],
    compliances: [
      ...content.certifications.map((certification) => ({
        requirementName: CERTIFICATION_STANDARDS[certification.code]?.name ?? certification.code,
        complianceStatement: `${certification.code} certificate ${certification.number} issued by ${certification.issuer}, valid until ${certification.valid_until}; declared by the brand.`,
        complianceCountries: [],
        ...(certification.evidence_url ? { complianceDocuments: [{ header: `${certification.code} certificate`, contentType: "URL", content: certification.evidence_url }] } : {}),
      })),
      ...input.factoryCertifications.map((code) => ({
        requirementName: CERTIFICATION_STANDARDS[code]?.name ?? code,
        complianceStatement: `${maker?.name ?? "The maker"} holds ${code} certification, as recorded in the on-chain factory registry (${input.factoryVerified ? "verified" : "not verified"} by its administrators).`,
        complianceCountries: [],
      })),
    ],
    composition: {
      componentInformation: { applicable: false },
      materialInformation: { materials: [...fibreMaterials(content, textile, placeholder), ...substanceMaterials(config, content, textile, placeholder)] },
    },
  };
  document.additionalData = [
    chainAnchorData(input),
    lineageData(lineage, content.passport?.id ?? null),
    ...(textile.stages?.length ? [stagesData(config, textile.stages, confirmations)] : []),
    placeholderData(placeholders),
    ...withheldData(input),
  ];
  return document;
}

/** The chain anchor, which the model has no block for. */
function chainAnchorData(input: CredentialInput): Json {
  const { blockchain } = input.record;
  const text = (label: string, description: string, data: string | number | null) =>
    data === null ? [] : [{ label, description, type: { dataType: typeof data === "number" ? "xsd:integer" : "xsd:string" }, data: String(data) }];
  return {
    label: "chainAnchor",
    description: "The passport's content hash anchored on chain: keccak256 of the RFC 8785 canonical JSON of `content` in the anchored record.",
    type: { dataType: "object" },
    children: [
      ...text("network", "network name", blockchain.network),
      ...text("chainId", "EVM chain id", blockchain.chain_id),
      ...text("contract", "ERC-721 passport contract", blockchain.contract),
      ...text("tokenId", "token id", blockchain.token_id),
      ...text("dataHash", "content hash held on chain", blockchain.data_hash ?? input.passport.product.passport_data_hash),
      ...text("transactionHash", "mint transaction", blockchain.tx_hash),
      ...text("explorerURL", "the transaction on a block explorer", blockchain.explorer_url),
    ],
  };
}

/**
 * The passport's granularity (model, batch or item) and the model and batch passports it was made from, which the
 * model has no block for: each with its persistent id, its record, the data hash of the version this one is pinned
 * to, and the fields taken from it.
 */
function lineageData(lineage: RecordLineage, dppId: string | null): Json {
  const text = (label: string, description: string, data: string) => ({ label, description, type: { dataType: "xsd:string" }, data });
  const parent = (level: "model" | "batch", link: ParentLink | null): Json[] => {
    if (!link) return [];
    const fields = lineage.inherited.filter((entry) => entry.from === level).map((entry) => entry.field);
    return [
      {
        label: level,
        description: `the ${level} passport this one was made from`,
        type: { dataType: "object" },
        children: [
          text("digitalProductPassportId", "its persistent passport id", link.dpp_id),
          text("uid", "its Passport Registry UID", link.uid),
          text("passportRecord", "its anchored passport record", link.dpp_url),
          text("pinnedDataHash", "the data hash of its version this passport was made from", link.pinned_data_hash),
          ...(fields.length > 0 ? [text("inheritedFields", "the fields of this passport's content taken from it, comma-separated", fields.join(","))] : []),
        ],
      },
    ];
  };
  return {
    label: "lineage",
    description: "The level this passport covers (model: every item of a style; batch: every item of a production lot; item: one item) and the passports it was made from.",
    type: { dataType: "object" },
    children: [
      text("granularity", "model, batch or item", lineage.granularity),
      ...(dppId ? [text("digitalProductPassportId", "this passport's persistent id (EN 18219)", dppId)] : []),
      ...parent("model", lineage.model),
      ...parent("batch", lineage.batch),
    ],
  };
}

type Placeholder = { pointer: string; reason: string | undefined };
type PlaceholderFn = <T>(pointer: string, value: T, reason?: string) => T;
const MATERIALS = "/composition/materialInformation/materials";

/**
 * The fibres: the textile section's materials (origin, recycled share, certification), else the fibre composition.
 * `substancesOfConcernInformation` is data only where the brand declared none at all; with some declared, which fibre
 * holds each is not recorded, and the substances are listed as their own materials (as the model's example does).
 */
function fibreMaterials(content: CredentialInput["record"]["content"], textile: TextileData, placeholder: PlaceholderFn): Json[] {
  const declaredNone = textile.substances_of_concern !== undefined && textile.substances_of_concern.length === 0;
  const listed = (textile.substances_of_concern?.length ?? 0) > 0;
  const fibres = textile.materials?.length
    ? textile.materials.map((m) => ({ fibre: m.fibre, percent: m.mass_percent, origin: m.origin_country, recycled: m.recycled_percent, certification: m.certification, recycledOrigin: m.recycled_origin }))
    : content.fiber_composition.map((share) => ({ fibre: share.fiber, percent: share.percent, origin: undefined, recycled: undefined, certification: undefined, recycledOrigin: undefined }));
  return fibres.map((m, index) => ({
    recycled: m.recycled ?? placeholder(`${MATERIALS}/${index}/recycled`, 0, textile.materials?.length ? "the material states no recycled_percent (0 for virgin fibre)" : undefined),
    materialIdentifications: [],
    materialDocuments: [
      ...(m.certification ? [{ header: `${m.certification.code} certificate`, contentType: "text/plain", content: `${m.certification.code} certificate ${m.certification.number}, declared by the brand` }] : []),
      ...(m.recycledOrigin ? [{ header: "Origin of the recycled content", contentType: "text/plain", content: m.recycledOrigin === "post_consumer" ? "post-consumer" : "pre-consumer" }] : []),
    ],
    substancesOfConcernInformation: {
      applicable: declaredNone
        ? false
        : placeholder(`${MATERIALS}/${index}/substancesOfConcernInformation/applicable`, false, listed ? "substances of concern are listed as their own materials; which fibre holds each is not recorded" : undefined),
    },
    materialType: `textile fibre: ${m.fibre}`,
    // ISO 3166 alpha-2, as the model asks; left out when the brand did not give it.
    ...(m.origin ? { materialOrigin: m.origin } : {}),
    declarableIngredient: { applicable: placeholder(`${MATERIALS}/${index}/declarableIngredient/applicable`, false) },
    concentrationInformation: { concentration: { concentrationValue: m.percent, concentrationUnit: "unit:percent" } },
  }));
}

/** Each substance of concern (ESPR Art. 7(5)) as a material of its own: name, CAS and EC numbers, concentration, location. */
function substanceMaterials(config: Pick<Config, "publicBaseUrl">, content: CredentialInput["record"]["content"], textile: TextileData, placeholder: PlaceholderFn): Json[] {
  const offset = textile.materials?.length ? textile.materials.length : content.fiber_composition.length;
  return (textile.substances_of_concern ?? []).map((s, i) => {
    const at = `${MATERIALS}/${offset + i}`;
    const concentration = { concentrationValue: s.concentration_percent, concentrationUnit: "unit:percent" };
    const url = elementUrl(config, content, `textile.substances_of_concern.${i}`);
    return {
      recycled: placeholder(`${at}/recycled`, 0),
      materialIdentifications: [
        ...(s.cas ? [{ materialName: s.name, materialId: s.cas, materialListTypeId: "CAS" }] : []),
        ...(s.ec ? [{ materialName: s.name, materialId: s.ec, materialListTypeId: "EC" }] : []),
      ],
      materialDocuments: url ? [{ header: `${s.name}: passport element`.slice(0, 100), contentType: "URL", content: url }] : [],
      substancesOfConcernInformation: {
        applicable: true,
        content: {
          exemption: placeholder(`${at}/substancesOfConcernInformation/content/exemption`, UNKNOWN),
          hazardClassifications: placeholder(`${at}/substancesOfConcernInformation/content/hazardClassifications`, [] as Json[], "the CLP hazard classification is not recorded"),
          substanceOfConcernDocuments: s.safe_use ? [{ header: "Safe use", contentType: "text/plain", content: s.safe_use }] : [],
          substanceOfConcernLocations: [s.location],
          substanceOfConcernConcentrationRange: { minConcentration: concentration, maxConcentration: concentration },
        },
      },
      materialType: `substance of concern: ${s.name}`,
      materialLocations: [s.location],
      declarableIngredient: { applicable: placeholder(`${at}/declarableIngredient/applicable`, false) },
      concentrationInformation: { concentration },
    };
  });
}

/** Durability, care, repair and end of life, which the model has no fields for: named characteristics. */
function textileCharacteristics(textile: TextileData): Array<{ otherCharacteristicName: string; otherCharacteristicOutcome: string }> {
  const item = (otherCharacteristicName: string, otherCharacteristicOutcome: string) => ({ otherCharacteristicName, otherCharacteristicOutcome });
  return [
    ...(textile.durability ?? []).map((d) => item(`durability: ${d.property.replace(/_/g, " ")} (${d.standard})`, d.class ? `${d.result}, class ${d.class}` : d.result)),
    ...(textile.care?.symbols.length ? [item("care symbols (ISO 3758)", textile.care.symbols.join(", "))] : []),
    ...(textile.care?.text ? [item("care", textile.care.text)] : []),
    ...(textile.repair?.instructions ? [item("repair instructions", textile.repair.instructions)] : []),
    ...(textile.repair?.spare_parts?.length ? [item("spare parts", textile.repair.spare_parts.join(", "))] : []),
    ...(textile.end_of_life?.take_back ? [item("take-back", textile.end_of_life.take_back)] : []),
  ];
}

/** The repair and take-back services, and each facility's confirmation of its stage. */
function textileSources(textile: TextileData, confirmations: Map<number, StageConfirmationLike | null>): Json[] {
  return [
    ...(textile.repair?.service_url ? [{ header: "Repair service", category: "Repair and Installation", contentType: "URL", content: textile.repair.service_url }] : []),
    ...(textile.end_of_life?.take_back_url ? [{ header: "Take-back service", category: "Return and Disposal", contentType: "URL", content: textile.end_of_life.take_back_url }] : []),
    ...(textile.stages ?? []).flatMap((stage, index) => {
      const confirmation = confirmations.get(index);
      return confirmation
        ? [{ header: `${STAGE_NAMES[stage.stage]} confirmed by its facility (on-chain transaction)`.slice(0, 100), category: "Supply Chain Information", contentType: "URL", content: confirmation.explorer_url }]
        : [];
    }),
  ];
}

/** The processing stages, which the model has no block for: each facility, its country and identifier, its dates. */
function stagesData(config: Pick<Config, "publicBaseUrl">, stages: NonNullable<TextileData["stages"]>, confirmations: Map<number, StageConfirmationLike | null>): Json {
  const text = (label: string, description: string, data: string) => ({ label, description, type: { dataType: "xsd:string" }, data });
  return {
    label: "processingStages",
    description: "Who ran each processing stage of the garment and where, as the brand declared it (anchored in its content), and whether the facility confirmed it on chain.",
    type: { dataType: "array" },
    children: stages.map((stage, index) => {
      const uri = facilityUri(config, stage.facility);
      const confirmation = confirmations.get(index);
      return {
        label: stage.stage,
        description: STAGE_NAMES[stage.stage],
        type: { dataType: "object" },
        children: [
          // A name or identifier withheld from this reader (docs/access.md) is absent, as in the record.
          ...(stage.facility.name ? [text("facilityName", "the facility", stage.facility.name)] : []),
          text("facilityCountry", "its country (ISO 3166 alpha-2)", stage.facility.country),
          ...(stage.facility.id ? [text("facilityId", `its ${stage.facility.id.scheme} identifier`, stage.facility.id.value)] : []),
          ...(uri ? [text("facilityUri", "its address", uri)] : []),
          ...(stage.started ? [{ label: "started", description: "stage started (ISO 8601 date)", type: { dataType: "xsd:string" }, data: stage.started }] : []),
          ...(stage.completed ? [{ label: "completed", description: "stage completed (ISO 8601 date)", type: { dataType: "xsd:string" }, data: stage.completed }] : []),
          text("attribution", "confirmed_by_facility or declared_by_brand", confirmation ? "confirmed_by_facility" : "declared_by_brand"),
          ...(confirmation ? [text("confirmationTransaction", "the facility's confirmation on chain", confirmation.tx_hash)] : []),
        ],
      };
    }),
  };
}

/**
 * The elements withheld from this reader by the passport's access classes (docs/access.md): absent above, never
 * placeholders (a placeholder stands for data nobody has; these exist, for readers of another class).
 */
function withheldData(input: CredentialInput): Json[] {
  const withheld = (input.record as { access?: { class: string; withheld: string[] } }).access;
  if (!withheld || withheld.withheld.length === 0) return [];
  return [
    {
      label: "withheldElements",
      description: `Passport elements not shown to this reader (access class ${withheld.class}): each child names one by its element path; readers of a higher class see them.`,
      type: { dataType: "array" },
      children: withheld.withheld.map((path) => ({ label: path, description: "withheld by access class", type: { dataType: "xsd:string" } })),
    },
  ];
}

/** The list of placeholder values, so a reader can tell them from data. */
function placeholderData(pointers: Placeholder[]): Json {
  return {
    label: "placeholders",
    description:
      "Values this document must hold under the Catena-X schema but the service has no data for. Each child names " +
      "one by JSON pointer; its value there is a placeholder (\"unknown\", \"\", 0, false, [] or 9999-12-31), not data.",
    type: { dataType: "array" },
    children: pointers.map(({ pointer, reason }) => ({ label: pointer, description: reason ? `placeholder: ${reason}` : "placeholder: no data", type: { dataType: "xsd:string" } })),
  };
}

/** A name-based (version 5, SHA-1) UUID of a URL (RFC 9562, URL namespace): the same passport, the same identifier. */
export function nameBasedUuid(name: string): string {
  const namespace = Buffer.from("6ba7b8119dad11d180b400c04fd430c8", "hex");
  const bytes = createHash("sha1").update(namespace).update(name, "utf8").digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
