// The dashboard's product list: a brand's products, searched and filtered, each with the status its public passport
// shows ("verified" under the same rule as the public record: minted and indexed at the confirmation depth).
import { finalBlockUpTo } from "../chain/finality";
import type { AppDeps } from "../deps";
import type { IndexerState } from "../onchain/indexer-state.repo";
import { PASSPORT_STATUSES } from "../passports/stages";
import { listBrandProducts, type ChainView, type ListKey, type PageStart, type ProductListFilter, type ProductListRow } from "./product-list.repo";

export { LIST_COUNT_CAP } from "./product-list.repo";
export type { ListKey, PageStart, ProductListFilter };

export type PassportStatus = "unissued" | "pending" | "confirming" | "verified";

export type ProductSummary = {
  uid: string;
  sku: string;
  name: string;
  category: string;
  passportStatus: PassportStatus;
  /** The passport's lifecycle on chain (active, lost, stolen, recovered); null until the indexer has the mint. */
  chainStatus: string | null;
  tagAssigned: boolean;
  createdAt: Date;
  txHash: string | null;
};

const UNDEFINED_TABLE = "42P01";

/**
 * A page's cursor as the API gives it: the key of the row at its edge, `<created µs>.<id>`. Not opaque, and no secret:
 * the dashboard's session scopes the list to its brand, so a cursor names at most an instant and a row id of it.
 */
export const LIST_CURSOR = "^[0-9]{1,16}\\.[0-9]{1,10}$";
export const cursorOf = (key: ListKey | null): string | null => (key ? `${key.createdUs}.${key.id}` : null);
export function keyOfCursor(cursor: string): ListKey {
  const [createdUs, id] = cursor.split(".");
  return { createdUs: createdUs!, id: Number(id) };
}

export async function listProducts(
  deps: AppDeps,
  brandId: number,
  filter: ProductListFilter,
  page: { limit: number } & PageStart,
  indexerState: () => Promise<IndexerState>,
): Promise<{ items: ProductSummary[]; total: number; totalIsLowerBound: boolean; next: ListKey | null; previous: ListKey | null }> {
  const chain = await chainView(deps, indexerState);
  let result;
  try {
    result = await listBrandProducts(deps.db, brandId, filter, page, chain);
  } catch (error) {
    // The views went away under us (a re-index): list what Postgres knows without the chain's columns.
    if ((error as { code?: string }).code !== UNDEFINED_TABLE || !chain) throw error;
    result = await listBrandProducts(deps.db, brandId, filter, page, undefined);
  }
  const { rows, ...paging } = result;
  return { items: rows.map((row) => summaryOf(row, chain)), ...paging };
}

/** `indexerState`: the indexer's progress, read once for every request that asks meanwhile (sharedIndexerState). */
async function chainView(deps: AppDeps, indexerState: () => Promise<IndexerState>): Promise<ChainView> {
  const state = await indexerState().catch(() => undefined);
  if (!state) return undefined;
  return { schema: deps.config.onchainSchema, verifiedUpTo: finalBlockUpTo(state.indexedBlock, deps.config.confirmations) };
}

function summaryOf(row: ProductListRow, chain: ChainView): ProductSummary {
  const mintedBlock = row.chain_minted_block === null ? undefined : Number(row.chain_minted_block);
  let passportStatus: PassportStatus = "unissued";
  if (mintedBlock !== undefined && chain && mintedBlock <= chain.verifiedUpTo) passportStatus = "verified";
  else if (mintedBlock !== undefined) passportStatus = "confirming";
  else if (row.issuance_status === "pending" || row.issuance_status === "minted") passportStatus = "pending";
  return {
    uid: row.uid,
    sku: row.sku,
    name: row.name,
    category: row.category,
    passportStatus,
    chainStatus: row.chain_status === null ? null : (PASSPORT_STATUSES[row.chain_status] ?? "unknown"),
    tagAssigned: row.chain_tag_hash !== null || row.tag_in_app,
    createdAt: row.created_at,
    txHash: row.chain_mint_tx_hash ?? row.issuance_tx_hash,
  };
}
