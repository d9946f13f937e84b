// Which scans count (scans/scan-recorder.ts): one per client and product in a sliding window, and at most a
// bounded number per client and hour, decided by app.admit_scan in one statement so every replica agrees.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // When a client's view of a product last counted; a view inside the window after it does not count again.
  await knex.raw(`
    CREATE TABLE app.scan_windows (
      client_key text NOT NULL,
      product_id integer NOT NULL REFERENCES app.products (id) ON DELETE CASCADE,
      counted_at timestamptz NOT NULL,
      PRIMARY KEY (client_key, product_id)
    )`);
  await knex.raw("CREATE INDEX scan_windows_counted_at ON app.scan_windows (counted_at)");
  // How many scans a client added this hour, across products.
  await knex.raw(`
    CREATE TABLE app.scan_client_hours (
      client_key text NOT NULL,
      hour timestamptz NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (client_key, hour)
    )`);
  await knex.raw("CREATE INDEX scan_client_hours_hour ON app.scan_client_hours (hour)");

  // True when this view counts: the client's window for the product has passed (or never started) and the client
  // has counted fewer than p_hour_limit scans this hour. Both claims are conditional upserts, so of concurrent views
  // exactly one wins the window and no client passes its hourly bound. A view past the bound still starts the
  // window: the client did look at the product, it just adds nothing.
  await knex.raw(`
    CREATE FUNCTION app.admit_scan(p_client text, p_product integer, p_window interval, p_hour_limit integer)
    RETURNS boolean LANGUAGE sql AS $$
      WITH window_claim AS (
        INSERT INTO app.scan_windows AS w (client_key, product_id, counted_at) VALUES (p_client, p_product, now())
        ON CONFLICT (client_key, product_id) DO UPDATE SET counted_at = excluded.counted_at
        WHERE w.counted_at <= excluded.counted_at - p_window
        RETURNING 1
      ), hour_claim AS (
        INSERT INTO app.scan_client_hours AS h (client_key, hour, count)
        SELECT p_client, date_trunc('hour', now()), 1 FROM window_claim WHERE p_hour_limit > 0
        ON CONFLICT (client_key, hour) DO UPDATE SET count = h.count + 1
        WHERE h.count < p_hour_limit
        RETURNING 1
      )
      SELECT EXISTS (SELECT 1 FROM hour_claim)
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP FUNCTION IF EXISTS app.admit_scan(text, integer, interval, integer)");
  await knex.raw("DROP TABLE IF EXISTS app.scan_client_hours");
  await knex.raw("DROP TABLE IF EXISTS app.scan_windows");
}
