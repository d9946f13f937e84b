// The public DPP record (spec 2.3; field names in docs/public-api.md): what GET /api/dpp/{uid} serves and every
// page, badge and brand view of a passport is built from, so "verified" means the same everywhere.
import { confirmationsAt, isFinal, requiredConfirmations } from "../chain/finality";
import { explorerTxUrl } from "../links";
import type { Config } from "../config";
import { PASSPORT_STATUSES, STAGES } from "./stages";
import { brandAddressOf, productLinks } from "../links";
import type { PublicPassport } from "./public-passport";

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
    links: productLinks(config, product.uid, brandAddressOf(product)),
  };
}

export type PublicRecord = ReturnType<typeof buildPublicRecord>;
