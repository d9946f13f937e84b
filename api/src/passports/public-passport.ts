// The public DPP record of a UID: stored product content, plus the chain's view of it from the indexer.
import type { AppDeps } from "../deps";
import { NotFoundError } from "../errors";
import { indexerState, type IndexerState } from "../onchain/indexer-state.repo";
import type { FactoryPlace, IndexedPassport, IndexedSupplyChainEvent } from "../onchain/passports.repo";
import { dataHashOf, passportContentFor, tokenIdOf, type PassportContent } from "./content";
import { findProductWithChain, type ProductRow } from "../products/products.repo";
import { findParentPassports, type ParentPassportRow } from "./lineage.repo";
import { listConfirmedStages, type ConfirmedStageRow } from "./stage-confirmations.repo";

export type PublicPassport = {
  product: ProductRow;
  content: PassportContent;
  computedHash: string;
  tokenId: string;
  indexed: IndexedPassport | undefined;
  indexedBlock: number | undefined;
  events: IndexedSupplyChainEvent[];
  factoryVerified: boolean | undefined;
  /**
   * The maker named in `content` confirmed it made this product: its operator minted the passport, assigned the tag
   * or recorded a step (confirmMaker), or the chain holds a step recorded for that factory. Otherwise the maker is
   * only the brand's declaration.
   */
  makerConfirmed: boolean;
  factoryNames: Map<number, FactoryPlace>;
  contractAddress: string | null;
  /** The model and batch passports `content.passport` links to, as they are now (empty when it links none). */
  parents: ParentPassportRow[];
  /**
   * Facilities' confirmations of the textile stages, recorded on this passport or, for stages it took from its model
   * or batch, on that passport (empty without stages).
   */
  stageConfirmations: ConfirmedStageRow[];
};

/**
 * `state`: the indexer's state when the caller has read it already (the cached routes have), else read here.
 * `brandId`: only that brand's product (the brand API), so another brand's UID is not found.
 */
export async function publicPassport(deps: AppDeps, uid: string, state?: IndexerState, brandId?: number): Promise<PublicPassport> {
  const schema = deps.config.onchainSchema;
  const tokenId = tokenIdOf(uid.toUpperCase());
  const [read, indexer] = await Promise.all([
    findProductWithChain(deps.db, schema, uid, tokenId, brandId, (error) =>
      deps.logger.warn({ err: error, uid }, "reading a passport with the indexer's view of it failed; served without it"),
    ),
    state ?? indexerState(deps.db, schema).catch(() => undefined),
  ]);
  if (!read) throw new NotFoundError(brandId === undefined ? "Passport" : "Product");
  const { product, chain, factoryVerified } = read;
  const content = passportContentFor(product);
  const parentIds = [content.passport?.model?.id, content.passport?.batch?.id].filter((id): id is string => id !== undefined);
  const [parents, stageConfirmations] = await Promise.all([
    findParentPassports(deps.db, product.brand_id, parentIds),
    content.textile?.stages?.length ? listConfirmedStages(deps.db, product.brand_id, stageSources(content)) : [],
  ]);
  const indexed = chain?.passport;
  const events = chain?.events ?? [];
  // The factories of the supply chain, read with the events.
  const factoryNames = chain?.factoryPlaces ?? new Map<number, FactoryPlace>();
  return {
    product,
    content,
    computedHash: dataHashOf(content),
    tokenId,
    indexed,
    indexedBlock: indexer?.indexedBlock,
    events,
    factoryVerified,
    makerConfirmed: makerConfirmed(product, events),
    factoryNames,
    contractAddress: product.passport_contract ?? deployedPassportAddress(deps),
    parents,
    stageConfirmations,
  };
}

/**
 * The passports a confirmation of this one's stages may be recorded on: itself and, when it took its stages from
 * above, its batch and its model (an item takes them from its batch, which may have taken them from the model).
 */
function stageSources(content: PassportContent): string[] {
  const identity = content.passport;
  if (!identity?.inherited?.["textile.stages"]) return [content.uid];
  return [content.uid, identity.batch?.uid, identity.model?.uid].filter((uid): uid is string => uid !== undefined);
}

/** See PublicPassport.makerConfirmed. Steps are recorded only through a factory's operator account (or an admin). */
function makerConfirmed(product: ProductRow, events: IndexedSupplyChainEvent[]): boolean {
  if (product.factory_id === null) return false;
  const maker = Number(product.factory_id);
  if (product.confirmed_factory_id !== null && Number(product.confirmed_factory_id) === maker) return true;
  return events.some((event) => event.factoryId === maker);
}

function deployedPassportAddress(deps: AppDeps): string | null {
  try {
    return deps.chain.contracts().deployment.contracts.ProductPassport.address;
  } catch {
    return null;
  }
}
