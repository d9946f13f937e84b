// SQL of shoppers' scans: the scan rows, and the admission windows that decide which views count (migration 013).
import type { Knex } from "../db/knex";

/** Records one scan; call it inside the transaction that also meters it and enqueues its events. */
export async function insertScanEvent(trx: Knex, productId: number, verified: boolean): Promise<{ id: number; scannedAt: Date }> {
  const [row] = await trx("app.scan_events").insert({ product_id: productId, verified }).returning(["id", "scanned_at"]);
  return { id: Number(row.id), scannedAt: row.scanned_at as Date };
}

/**
 * Whether a client's view of a product counts as a scan, decided by app.admit_scan (migration 013) in one statement:
 * once per client and product in `windowSeconds`, at most `hourLimit` per client and hour. Committed on its own and
 * asynchronously, as the call meter's counters are: a crash loses at most the last moment's admissions.
 */
export async function admitScan(db: Knex, clientKey: string, productId: number, windowSeconds: number, hourLimit: number): Promise<boolean> {
  const { rows } = await db.raw<{ rows: Array<{ admitted: boolean }> }>(
    "SELECT app.admit_scan(?, ?, make_interval(secs => ?), ?) AS admitted, set_config('synchronous_commit', 'off', true) AS async_commit",
    [clientKey, productId, windowSeconds, hourLimit],
  );
  return rows[0]?.admitted === true;
}

/** Forgets windows that have passed and client counts of past hours; returns how many rows went. */
export async function pruneScanAdmissions(db: Knex, windowSeconds: number): Promise<number> {
  const windows = await db("app.scan_windows").where("counted_at", "<", db.raw("now() - make_interval(secs => ?)", [windowSeconds])).delete();
  const hours = await db("app.scan_client_hours").where("hour", "<", db.raw("date_trunc('hour', now())")).delete();
  return windows + hours;
}
