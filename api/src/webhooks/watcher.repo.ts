// SQL of the confirmation watcher: scan the indexer's views past a cursor, park chain facts, attribute them to products.
import type { Knex } from "../db/knex";

export type FactKind = "mint" | "tag";

export type Cursor = { lastBlock: number; source: string };

export async function readCursor(trx: Knex, name: string): Promise<Cursor | undefined> {
  const row = await trx("app.webhook_watch_cursors").where({ name }).first<{ last_block: string | number; source: string } | undefined>("last_block", "source");
  return row ? { lastBlock: Number(row.last_block), source: row.source } : undefined;
}

export async function writeCursor(trx: Knex, name: string, cursor: Cursor): Promise<void> {
  await trx("app.webhook_watch_cursors")
    .insert({ name, last_block: cursor.lastBlock, source: cursor.source, updated_at: trx.fn.now() })
    .onConflict("name")
    .merge();
}

/** Fingerprint of the view definitions: they name the Ponder schema, which is new for every chain and re-index. */
export async function viewsFingerprint(trx: Knex, schema: string): Promise<string> {
  const result = await trx.raw<{ rows: Array<{ fingerprint: string | null }> }>(
    `SELECT md5(string_agg(definition, '|' ORDER BY viewname)) AS fingerprint
       FROM pg_views WHERE schemaname = ? AND viewname IN ('passport', 'tag_assignment')`,
    [schema],
  );
  return result.rows[0]?.fingerprint ?? "";
}

/** Parks mints in blocks (after, upTo] of the indexer's passport view. */
export async function parkMints(trx: Knex, schema: string, after: number, upTo: number): Promise<number> {
  const result = await trx.raw<{ rowCount: number }>(
    `INSERT INTO app.webhook_chain_facts (kind, ref, token_id, block_number, tx_hash, detail)
     SELECT 'mint', p.token_id::text, p.token_id::text, p.minted_block, p.mint_tx_hash,
            jsonb_build_object('at', p.minted_at::bigint)
       FROM "${schema}".passport p
      WHERE p.minted_block > ? AND p.minted_block <= ?
     ON CONFLICT DO NOTHING`,
    [after, upTo],
  );
  return result.rowCount;
}

/** Parks tag assignments in blocks (after, upTo] of the indexer's tag_assignment view. */
export async function parkTagAssignments(trx: Knex, schema: string, after: number, upTo: number): Promise<number> {
  const result = await trx.raw<{ rowCount: number }>(
    `INSERT INTO app.webhook_chain_facts (kind, ref, token_id, block_number, tx_hash, detail)
     SELECT 'tag', t.id, t.token_id::text, t.block_number, t.tx_hash,
            jsonb_build_object('at', t.timestamp::bigint, 'tag_hash', t.tag_hash, 'previous_tag_hash', t.previous_tag_hash)
       FROM "${schema}".tag_assignment t
      WHERE t.block_number > ? AND t.block_number <= ?
     ON CONFLICT DO NOTHING`,
    [after, upTo],
  );
  return result.rowCount;
}

export type AttributableFact = {
  kind: FactKind;
  ref: string;
  tokenId: string;
  blockNumber: number;
  txHash: string;
  detail: { at: number; tag_hash?: string; previous_tag_hash?: string };
  uid: string;
  brandId: number;
};

/**
 * Parked facts whose product is known: a mint once its issuance row says minted (the API settles it), a tag
 * assignment once the token maps to a product.
 */
export async function attributableFacts(trx: Knex, limit: number): Promise<AttributableFact[]> {
  const result = await trx.raw<{
    rows: Array<{ kind: FactKind; ref: string; token_id: string; block_number: string | number; tx_hash: string; detail: AttributableFact["detail"]; uid: string; brand_id: number }>;
  }>(
    `SELECT f.kind, f.ref, f.token_id, f.block_number, f.tx_hash, f.detail, pr.uid, pr.brand_id
       FROM app.webhook_chain_facts f
       JOIN app.passports p ON p.token_id = f.token_id AND (f.kind = 'tag' OR p.status = 'minted')
       JOIN app.products pr ON pr.id = p.product_id
      ORDER BY f.block_number
      LIMIT ?`,
    [limit],
  );
  return result.rows.map((r) => ({
    kind: r.kind,
    ref: r.ref,
    tokenId: r.token_id,
    blockNumber: Number(r.block_number),
    txHash: r.tx_hash,
    detail: r.detail,
    uid: r.uid,
    brandId: r.brand_id,
  }));
}

/**
 * The shared-wallet ledger row a transaction hash belongs to, as the first of its line: a fee bump or a re-send after
 * a reorg gives one row several hashes, and a superseded row's work is redone by the row it names. Undefined for a
 * transaction the ledger never sent (the local demo's seed, another wallet).
 */
export async function ledgerOriginOf(trx: Knex, txHash: string): Promise<number | undefined> {
  const result = await trx.raw<{ rows: Array<{ id: number | null }> }>(
    `WITH RECURSIVE line AS (
       SELECT id FROM app.chain_transactions WHERE hashes @> ARRAY[?]::text[]
       UNION
       SELECT t.id FROM app.chain_transactions t JOIN line ON t.superseded_by = line.id
     )
     SELECT min(id) AS id FROM line`,
    [txHash.toLowerCase()],
  );
  return result.rows[0]?.id ?? undefined;
}

export async function dropFact(trx: Knex, kind: FactKind, ref: string): Promise<void> {
  await trx("app.webhook_chain_facts").where({ kind, ref }).del();
}

/** Facts no product ever claimed (minted outside this service): dropped after `days`. */
export async function dropStaleFacts(trx: Knex, days: number): Promise<number> {
  return trx("app.webhook_chain_facts")
    .where("observed_at", "<", trx.raw("now() - make_interval(days => ?)", [days]))
    .del();
}

/** Whether this transaction holds the watcher's lock: one watcher works at a time, however many dispatchers run. */
export async function tryWatcherLock(trx: Knex): Promise<boolean> {
  const result = await trx.raw<{ rows: Array<{ locked: boolean }> }>(
    "SELECT pg_try_advisory_xact_lock(hashtext('passport-registry:webhook-watcher')) AS locked",
  );
  return result.rows[0]!.locked;
}
