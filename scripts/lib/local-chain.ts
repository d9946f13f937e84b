// Local mode runs on a Hardhat chain that lives only as long as the node: when a new chain appears, nothing may keep
// pointing at the old one. This drops chain-bound rows and the indexer's schemas of earlier chains.
import type { Knex } from "../../api/src/db/knex";
import type { Deployment } from "./deploy";

const CHAIN_KEY = "local_chain";

export async function resetForNewLocalChain(db: Knex, deployment: Deployment, viewsSchema: string): Promise<boolean> {
  const identity = { chainId: deployment.chainId, blockHash: deployment.contracts.ProductPassport.blockHash };
  const row = await db("app.meta").where({ key: CHAIN_KEY }).first<{ value: typeof identity } | undefined>();
  if (row && row.value.chainId === identity.chainId && row.value.blockHash === identity.blockHash) return false;

  await db.transaction(async (trx) => {
    // Passports minted on the old chain are gone with it: the products stay and can be issued again.
    await trx("app.passports").del();
    // And their later versions: anchored on the old chain, they would read back as versions of the new mint.
    await trx("app.product_versions").del();
    // And facilities' confirmations of their stages: their events were on the old chain.
    await trx("app.stage_confirmations").del();
    // So are the shared wallet's transactions: the new chain's nonces start again at 0.
    await trx("app.chain_reorgs").del();
    await trx("app.chain_transactions").del();
    await trx("app.meta")
      .insert({ key: CHAIN_KEY, value: JSON.stringify(identity), updated_at: trx.fn.now() })
      .onConflict("key")
      .merge();
  });
  // Ponder's schemas of earlier local chains, its sync cache (which would replay the old chain) and the views.
  const schemas = await db.raw<{ rows: Array<{ nspname: string }> }>(
    "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'ponder\\_%' OR nspname = ?",
    [viewsSchema],
  );
  for (const { nspname } of schemas.rows) await db.raw(`DROP SCHEMA IF EXISTS "${nspname}" CASCADE`);
  return true;
}
