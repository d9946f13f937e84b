// The public DPP record (spec 2.3; field names in docs/public-api.md): what GET /api/dpp/{uid} serves and every
// page, badge and brand view of a passport is built from, so "verified" means the same everywhere.
import { confirmationsAt, isFinal, requiredConfirmations } from "../chain/finality";
import { explorerTxUrl } from "../links";
import type { Config } from "../config";
import { PASSPORT_STATUSES, STAGES } from "./stages";
import { brandAddressOf, productLinks } from "../links";
import type { PublicPassport } from "./public-passport";
import type { Granularity, ParentRef } from "./content";
import type { ParentPassportRow } from "./lineage.repo";
import { dataHashOf } from "./content";
import type { TextileStageEntry } from "./textile";

export function buildPublicRecord(config: Config, passport: PublicPassport) {
  const { product, content, indexed } = passport;
  const { indexedBlock } = passport;
  const confirmations = indexed && indexedBlock !== undefined ? confirmationsAt(indexed.mintedBlock, indexedBlock) : 0;
  const verified = indexed !== undefined && indexedBlock !== undefined && isFinal(indexed.mintedBlock, indexedBlock, config.confirmations);
  const txHash = indexed?.mintTxHash ?? product.passport_tx_hash;
  let status: "unissued" | "pending" | "confirming" | "verified" = "unissued";
  if (verified) status = "verified";
  else if (indexed) status = "confirming";
  else if (product.passport_status === "pending" || product.passport_status === "minted") status = "pending";

  return {
    uid: product.uid,
    content,
    // Outside `content` (whose hash is anchored): whether the maker confirmed it, which can change after the mint.
    // A maker the brand only declared is never shown as verified, whatever the registry says of that factory.
    manufacturer: content.manufacturer
      ? {
          ...content.manufacturer,
          verified: passport.makerConfirmed && (passport.factoryVerified ?? false),
          attribution: passport.makerConfirmed ? ("confirmed_by_factory" as const) : ("declared_by_brand" as const),
        }
      : null,
    supply_chain_events: passport.events.map((event) => {
      const factory = passport.factoryNames.get(event.factoryId);
      return {
        id: event.id,
        stage_code: event.stage,
        stage: STAGES[event.stage] ?? "unknown",
        factory_id: event.factoryId,
        factory_name: factory?.name ?? null,
        place: factory?.city ? `${factory.city}, ${factory.country}` : factory?.country ?? null,
        time: event.timestamp.toISOString(),
        block_number: event.blockNumber,
        tx_hash: event.txHash,
        explorer_url: explorerTxUrl(config, event.txHash),
        details_hash: event.detailsHash,
      };
    }),
    blockchain: {
      verified,
      status,
      network: config.networkName,
      chain_id: config.chainId,
      contract: passport.contractAddress,
      token_id: passport.tokenId,
      tx_hash: txHash ?? null,
      explorer_url: txHash ? explorerTxUrl(config, txHash) : null,
      block_number: indexed?.mintedBlock ?? null,
      confirmations,
      required_confirmations: requiredConfirmations(config.confirmations),
      data_hash: indexed?.dataHash ?? null,
      data_hash_version: indexed?.dataHashVersion ?? null,
      computed_data_hash: passport.computedHash,
      data_hash_matches: indexed ? indexed.dataHash.toLowerCase() === passport.computedHash.toLowerCase() : null,
      hash_rule: "keccak256(RFC 8785 canonical JSON of `content`)",
      passport_status: indexed ? PASSPORT_STATUSES[indexed.status] ?? "unknown" : null,
      nfc_tag_hash: indexed?.tagHash ?? null,
    },
    textile_stages: textileStagesOf(config, passport),
    links: productLinks(config, product.uid, brandAddressOf(product)),
    lineage: lineageOf(config, passport),
  };
}

/** A textile stage as the brand declared it, and whether its facility confirmed it. */
export type RecordTextileStage = TextileStageEntry & {
  index: number;
  attribution: "confirmed_by_facility" | "declared_by_brand";
  confirmation: StageConfirmation | null;
};

/**
 * A facility's confirmation: the supply-chain event on `token_of` (this passport, or the model or batch it took its
 * stages from) whose `details_hash` is keccak256 of the RFC 8785 JSON of `details`.
 */
export type StageConfirmation = {
  factory_id: number;
  confirmed_by: "factory_operator" | "admin";
  confirmed_at: string;
  token_of: string;
  tx_hash: string;
  explorer_url: string;
  block_number: number;
  details_hash: string;
  details: Record<string, unknown> | null;
};

/**
 * Outside `content` (whose hash is the brand's anchor): a confirmation is another party's statement, made after the
 * mint. It counts only for the stage exactly as it was confirmed, so a stage the brand changed since is declared again.
 */
function textileStagesOf(config: Config, passport: PublicPassport): RecordTextileStage[] {
  const stages = passport.content.textile?.stages ?? [];
  return stages.map((entry, index) => {
    const hash = dataHashOf(entry);
    const matching = passport.stageConfirmations.filter((c) => c.stage_hash === hash);
    const found = matching.find((c) => c.uid === passport.product.uid) ?? matching[0];
    const confirmation: StageConfirmation | null = found
      ? {
          factory_id: Number(found.factory_id),
          confirmed_by: found.confirmed_by,
          confirmed_at: found.confirmed_at.toISOString(),
          token_of: found.uid,
          tx_hash: found.tx_hash,
          explorer_url: explorerTxUrl(config, found.tx_hash),
          block_number: Number(found.block_number),
          details_hash: found.details_hash,
          details: found.details ?? null,
        }
      : null;
    return { ...entry, index, attribution: confirmation ? "confirmed_by_facility" : "declared_by_brand", confirmation };
  });
}

/** The level a passport covers, and the model and batch passports it was made from, resolved as they are now. */
export type RecordLineage = {
  granularity: Granularity;
  model: ParentLink | null;
  batch: ParentLink | null;
  /** The fields of `content` this passport took from its model or batch, by field name. */
  inherited: Array<{ field: string; from: "model" | "batch"; uid: string }>;
};

/** A linked passport: its ids and addresses, and whether the version this one is pinned to is still its current one. */
export type ParentLink = {
  dpp_id: string;
  uid: string;
  /** Null when the linked passport is no longer in the registry (the ids and the pinned hash stay anchored here). */
  name: string | null;
  lot: string | null;
  dpp_url: string;
  scan_url: string;
  pinned_data_hash: string;
  current_data_hash: string | null;
  /** Null when the linked passport has no anchored version to compare with. */
  pinned_is_current: boolean | null;
};

/**
 * Outside `content`, as the links it holds (anchored in `content.passport`) are resolved now: a model's name or its
 * current version can change after the item was made, and the item stays pinned to the version it was made from.
 * Passports of content versions 1 and 2 are items without links.
 */
function lineageOf(config: Config, passport: PublicPassport): RecordLineage {
  const identity = passport.content.passport;
  const brand = brandAddressOf(passport.product);
  const link = (ref: ParentRef | undefined): ParentLink | null => {
    if (!ref) return null;
    const row: ParentPassportRow | undefined = passport.parents.find((parent) => parent.dpp_id === ref.id);
    const current = row?.current_data_hash ?? null;
    const { dpp_url, scan_url } = productLinks(config, ref.uid, brand);
    return {
      dpp_id: ref.id,
      uid: ref.uid,
      name: row?.name ?? null,
      lot: row?.lot ?? null,
      dpp_url,
      scan_url,
      pinned_data_hash: ref.data_hash,
      current_data_hash: current,
      pinned_is_current: current === null ? null : current.toLowerCase() === ref.data_hash.toLowerCase(),
    };
  };
  const inherited = Object.entries(identity?.inherited ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([field, from]) => {
      const source = identity?.[from];
      return source ? [{ field, from, uid: source.uid }] : [];
    });
  return {
    granularity: identity?.granularity ?? passport.product.granularity ?? "item",
    model: link(identity?.model),
    batch: link(identity?.batch),
    inherited,
  };
}

export type PublicRecord = ReturnType<typeof buildPublicRecord>;
