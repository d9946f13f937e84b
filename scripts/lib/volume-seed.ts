// Seeds a database at volume for `npm run bench:volume`: brands of Zipf-like sizes, products and passports generated in
// Postgres (INSERT ... SELECT over generate_series, and unnest of arrays for what only Node can compute), with the
// rows the read paths touch: passports and their chain state, tags, scans, usage meters, webhook events and
// deliveries. Everything but the brands (created through the brand service, so their keys work) is bulk SQL.
import { createBrand } from "../../api/src/brands/service";
import type { Knex } from "../../api/src/db/knex";
import { tokenIdOf } from "../../api/src/passports/content";

export type VolumeSizes = { brands: number; products: number; passports: number };

export type SeededBrand = { id: number; slug: string; key: string; products: number; webhookId: number };

export type VolumeSeed = { brands: SeededBrand[]; seconds: Record<string, number> };

/** What a garment is called in each category; names are an adjective and one of these. */
const GARMENTS: Record<string, string[]> = {
  "t-shirts": ["T-Shirt", "Tee", "Crew Neck Tee"],
  hoodies: ["Hoodie", "Zip Hoodie"],
  jeans: ["Slim Jeans", "Straight Jeans", "Denim"],
  dresses: ["Midi Dress", "Wrap Dress"],
  jackets: ["Bomber Jacket", "Rain Jacket", "Denim Jacket"],
  shirts: ["Oxford Shirt", "Linen Shirt"],
  knitwear: ["Cardigan", "Sweater", "Merino Knit"],
  activewear: ["Leggings", "Running Top", "Track Pants"],
};
const ADJECTIVES = ["Organic", "Recycled", "Classic", "Relaxed", "Everyday", "Heritage", "Essential", "Premium", "Lightweight", "Coastal"];
const FACTORIES = 50;
const EVENTS_PER_PASSPORT = 2;

/**
 * Products per brand: brand i of n gets a share proportional to 1/i (Zipf, s = 1), so with 100 brands the largest holds
 * about a fifth of all products and the smallest about a thousandth. Each brand has at least one product.
 */
export function zipfSizes(brands: number, products: number): number[] {
  const weights = Array.from({ length: brands }, (_, i) => 1 / (i + 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(1, Math.floor((w / sum) * products)));
  sizes[0]! += products - sizes.reduce((a, b) => a + b, 0);
  return sizes;
}

/** Seconds `work` took, recorded under `label`. */
async function timed<T>(seconds: Record<string, number>, label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  seconds[label] = (performance.now() - started) / 1000;
  return result;
}

/**
 * `db`: a superuser connection (a pool of one) to the API's database, after its migrations. `ponderSchema`: the schema of Ponder's own
 * tables, whose views (in the API's views schema) the read paths query. The chain's passport rows are written into
 * Ponder's tables directly, not minted: minting 100,000 passports would take the chain far longer than the benchmark
 * may. The rows have the shape the indexer's handlers write (indexer/src/index.ts), so the API reads them through
 * the same views and Ponder's own indexes as in production. Ponder's reorg triggers are bypassed
 * (session_replication_role = replica): these rows belong to no block Ponder could roll back.
 */
export async function seedVolume(
  db: Knex,
  chain: { ponderSchema: string; chainId: number; passportContract: string },
  sizes: VolumeSizes,
  log: (line: string) => void,
): Promise<VolumeSeed> {
  const { ponderSchema } = chain;
  const seconds: Record<string, number> = {};
  const counts = zipfSizes(sizes.brands, sizes.products);
  const brands = await timed(seconds, "brands", async () => {
    const made: SeededBrand[] = [];
    for (let i = 0; i < sizes.brands; i += 1) {
      const n = String(i + 1).padStart(3, "0");
      const { brand, key } = await createBrand(db, {
        slug: `volume-${n}`,
        name: `Volume Brand ${n}`,
        uidPrefix: `V${n}`,
        plan: "enterprise",
        // The benchmark's own load must not run into plan limits (a custom SLA, as for a load test).
        limitOverrides: { api_calls_per_month: 1_000_000_000, requests_per_hour: 1_000_000_000 },
      });
      made.push({ id: brand.id, slug: brand.slug, key: key.key, products: counts[i]!, webhookId: 0 });
    }
    return made;
  });
  log(`  ${brands.length} brands (largest ${counts[0]!.toLocaleString("en-US")} products, smallest ${counts.at(-1)!.toLocaleString("en-US")})`);

  // One connection (`db` has a pool of one), so these settings hold for every statement below. Replica mode skips
  // triggers: Ponder's reorg triggers, and the foreign-key checks of rows generated consistent.
  await db.raw("SET synchronous_commit = off");
  await db.raw("SET session_replication_role = replica");
  await timed(seconds, "factories", () =>
    db.raw(
      `INSERT INTO app.factory_profiles (factory_id, name, city, country, capacity_units_per_month, min_order_units, lead_time_days, metadata_hash)
       SELECT f, 'Factory ' || f, (ARRAY['Dhaka','Gazipur','Chittagong','Narayanganj','Savar'])[1 + f % 5], 'BD', 50000, 500, 30,
              '0x' || md5(f::text) || md5('m' || f)
         FROM generate_series(1, ?::int) f`,
      [FACTORIES],
    ),
  );
  // The same factories registered on chain (Ponder's factory table), most of them verified.
  await db.raw(
    `INSERT INTO ??.factory (factory_id, metadata_hash, country, verified, certifications_mask, registered_block, registered_at,
                             registered_tx_hash, verified_at, updated_block)
     SELECT f, '0x' || md5(f::text) || md5('m' || f), 'BD', f % 5 <> 0, 3, 1, extract(epoch FROM now())::bigint,
            '0x' || md5('f' || f) || md5('r' || f), CASE WHEN f % 5 <> 0 THEN extract(epoch FROM now())::bigint END, 1
       FROM generate_series(1, ?::int) f`,
    [ponderSchema, FACTORIES],
  );

  // Products, oldest first so ids grow with created_at as they do in production, spread over two years, brands
  // interleaved. Row g of n goes to the brand whose share of [0, n) holds (g × a prime) mod n: a permutation, so each
  // brand gets exactly its size, with no sort of a million rows. g also makes SKU and UID unique.
  const categories = Object.keys(GARMENTS);
  const names = categories.map((c) => `ARRAY[${GARMENTS[c]!.map((g) => `'${g}'`).join(",")}]`);
  const bounds = counts.slice(0, -1).reduce<number[]>((acc, n) => [...acc, (acc.at(-1) ?? 0) + n], []);
  const spread = [1_000_003, 999_983, 7_919].find((prime) => sizes.products % prime !== 0)!;
  await timed(seconds, "products", () =>
    withoutSecondaryIndexes(db, "app.products", () =>
      db.raw(
        `INSERT INTO app.products (brand_id, uid, sku, name, category, fabric_type, price, description, factory_id,
                                   country_of_manufacture, carbon_kg, carbon_rating, created_at, updated_at)
         SELECT b.id,
                b.prefix || '-' || upper(substr(md5(k::text), 1, 6)) || lpad(upper(to_hex(k)), 6, '0'),
                'SKU-' || lpad(k::text, 7, '0'),
                (ARRAY[${ADJECTIVES.map((a) => `'${a}'`).join(",")}])[1 + (k / 7) % ${ADJECTIVES.length}] || ' ' ||
                  (CASE k % ${categories.length} ${names.map((arr, c) => `WHEN ${c} THEN (${arr})[1 + (k / 3) % array_length(${arr}, 1)]`).join(" ")} END),
                (ARRAY[${categories.map((c) => `'${c}'`).join(",")}])[1 + k % ${categories.length}],
                (ARRAY['cotton','organic cotton','polyester','denim','wool','linen'])[1 + k % 6],
                round((5 + (k % 95) + (k % 100) / 100.0)::numeric, 2),
                'A garment of the bench catalogue.',
                1 + k % ${FACTORIES},
                'BD',
                round((2 + (k % 30) / 3.0)::numeric, 2),
                (ARRAY['A','B','C','D'])[1 + k % 4],
                now() - interval '730 days' * (1 - k::float8 / ?), now() - interval '730 days' * (1 - k::float8 / ?)
           FROM generate_series(1, ?::int) AS k
           JOIN json_to_recordset(?::json) AS b(id int, prefix text, bucket int)
             ON b.bucket = width_bucket(((k::bigint * ${spread}) % ?)::int, ?::int[])`,
        [
          sizes.products,
          sizes.products,
          sizes.products,
          JSON.stringify(brands.map((b, i) => ({ id: b.id, prefix: `V${b.slug.slice(-3)}`, bucket: i }))),
          sizes.products,
          bounds,
        ],
      ),
    ),
  );
  log(`  ${sizes.products.toLocaleString("en-US")} products in ${seconds.products!.toFixed(1)} s`);

  // Passports: an even spread over the products (every k-th), so each brand has passports in proportion to its size.
  // The token id is keccak256 of the UID, which only Node computes here; the rows go in as arrays, 20,000 a statement.
  const every = Math.max(1, Math.floor(sizes.products / sizes.passports));
  await timed(seconds, "passports", async () => {
    const { rows } = await db.raw<{ rows: Array<{ id: number; uid: string }> }>(
      "SELECT id, uid FROM app.products WHERE id % ? = 0 ORDER BY id LIMIT ?",
      [every, sizes.passports],
    );
    for (let start = 0; start < rows.length; start += 20_000) {
      const batch = rows.slice(start, start + 20_000);
      await insertPassports(db, chain, batch.map((r) => r.id), batch.map((r) => tokenIdOf(r.uid)));
    }
  });
  log(`  ${sizes.passports.toLocaleString("en-US")} passports (app and chain rows, ${EVENTS_PER_PASSPORT} supply-chain events each) in ${seconds.passports!.toFixed(1)} s`);

  await timed(seconds, "tags, scans", async () => {
    // A tag on every fifth passport, as the dashboard's list checks (product_tags, assigned).
    await db.raw(
      `INSERT INTO app.product_tags (brand_id, product_id, tag_uid, tag_hash, status, created_at, assigned_at)
       SELECT p.brand_id, p.id, upper(lpad(to_hex(p.id), 14, '0')), '0x' || md5('tag' || p.id) || md5('t' || p.id), 'assigned', p.created_at, p.created_at
         FROM app.passports x JOIN app.products p ON p.id = x.product_id WHERE (hashtext('tag' || x.product_id) & 2147483647) % 5 = 0`,
    );
    // Five scans per passport on average, as /api/stats counts.
    await db.raw(
      `INSERT INTO app.scan_events (product_id, scanned_at, verified)
       SELECT x.product_id, now() - interval '1 minute' * ((x.product_id * 7 + s) % 525600), s % 10 <> 0
         FROM app.passports x CROSS JOIN generate_series(1, 5) s`,
    );
  });

  await timed(seconds, "usage", async () => {
    // Two years of monthly meters and endpoint counts, and 60 days of hourly request counts, for every brand.
    await db.raw(
      `INSERT INTO app.usage_monthly (brand_id, period, meter, count)
       SELECT b.id, to_char(date_trunc('month', now()) - interval '1 month' * m, 'YYYY-MM'), meter, 100 + (b.id * 37 + m * 11) % 9000
         FROM app.brands b CROSS JOIN generate_series(0, 23) m CROSS JOIN unnest(ARRAY['api_calls','certs','scans','carbon_ratings']) meter
       ON CONFLICT DO NOTHING`,
    );
    await db.raw(
      `INSERT INTO app.usage_endpoints (brand_id, period, endpoint, calls)
       SELECT b.id, to_char(date_trunc('month', now()) - interval '1 month' * m, 'YYYY-MM'), e, 10 + (b.id * 13 + m * 7 + length(e)) % 5000
         FROM app.brands b CROSS JOIN generate_series(0, 23) m
        CROSS JOIN unnest(ARRAY['POST /api/v1/products','GET /api/v1/products/:uid','POST /api/v1/certs/issue','GET /api/v1/usage',
                                'GET /api/v1/brand','GET /api/v1/webhooks','POST /api/v1/webhook/register','GET /api/v1/products/:uid/enrichment']) e
       ON CONFLICT DO NOTHING`,
    );
    await db.raw(
      `INSERT INTO app.usage_hourly (brand_id, hour, requests)
       SELECT b.id, date_trunc('hour', now()) - interval '1 hour' * h, 1 + (b.id * 17 + h) % 800
         FROM app.brands b CROSS JOIN generate_series(1, 24 * 60) h
       ON CONFLICT DO NOTHING`,
    );
  });

  await timed(seconds, "webhooks", async () => {
    // One endpoint per brand, subscribed to what issuance sends; two events per passport (cert.issued,
    // product.certified), each delivered to it: most succeeded, some failed, a few still pending.
    const { rows } = await db.raw<{ rows: Array<{ id: number; brand_id: number }> }>(
      `INSERT INTO app.webhook_endpoints (brand_id, kind, url, events, secret_ciphertext)
       SELECT id, 'v1', 'https://hooks.example.com/' || slug, ARRAY['cert.issued','product.certified'], 'bench:not-a-real-secret'
         FROM app.brands ORDER BY id
       RETURNING id, brand_id`,
    );
    for (const row of rows) brands.find((b) => b.id === row.brand_id)!.webhookId = row.id;
    await db.raw(
      `INSERT INTO app.webhook_events (id, brand_id, type, payload, dedupe_key, created_at)
       SELECT 'evt_' || md5(e.type || x.product_id), p.brand_id, e.type,
              json_build_object('type', e.type, 'uid', p.uid, 'token_id', x.token_id),
              e.type || ':' || p.uid, x.minted_at + interval '1 second' * e.n
         FROM app.passports x JOIN app.products p ON p.id = x.product_id
        CROSS JOIN (VALUES ('cert.issued', 1), ('product.certified', 2)) e(type, n)
        WHERE x.status = 'minted'`,
    );
    await db.raw(
      `INSERT INTO app.webhook_deliveries (id, event_id, endpoint_id, status, attempts, next_attempt_at, last_attempt_at,
                                           last_response_code, last_error, delivered_at, created_at)
       SELECT 'msg_' || md5('d' || ev.id), ev.id, ep.id, s.status, s.attempts, ev.created_at,
              ev.created_at + interval '2 seconds', s.code, s.error,
              CASE WHEN s.status = 'succeeded' THEN ev.created_at + interval '2 seconds' END, ev.created_at
         FROM app.webhook_events ev JOIN app.webhook_endpoints ep ON ep.brand_id = ev.brand_id
        CROSS JOIN LATERAL (SELECT CASE WHEN (hashtext(ev.id) & 2147483647) % 50 = 0 THEN 'failed' WHEN (hashtext(ev.id) & 2147483647) % 200 = 1 THEN 'pending' ELSE 'succeeded' END AS status) st
        CROSS JOIN LATERAL (SELECT st.status, CASE st.status WHEN 'failed' THEN 8 ELSE 1 END AS attempts,
                                   CASE st.status WHEN 'failed' THEN 502 WHEN 'succeeded' THEN 200 END AS code,
                                   CASE st.status WHEN 'failed' THEN 'HTTP 502' END AS error) s`,
    );
  });

  await timed(seconds, "vacuum analyze", async () => {
    // What autovacuum would have done by the time a database reached this size: statistics and visibility maps.
    await db.raw("SET session_replication_role = DEFAULT");
    // The row counts /api/stats reads (migration 043): their triggers were off for the seed's inserts.
    await db.raw("SELECT app.recount_rows()");
    await db.raw("VACUUM ANALYZE");
  });
  return { brands, seconds };
}

async function insertPassports(
  db: Knex,
  { ponderSchema, chainId, passportContract }: { ponderSchema: string; chainId: number; passportContract: string },
  productIds: number[],
  tokenIds: string[],
): Promise<void> {
  // Most passports are minted and indexed; one in fifty is still pending (sent, not mined), with no chain row.
  const inserted = await db.raw<{ rows: Array<{ product_id: number; status: string }> }>(
    `INSERT INTO app.passports (product_id, brand_id, token_id, data_hash, status, chain_id, contract_address, tx_hash, block_number,
                                requested_at, minted_at, events_sent)
     SELECT p.id, p.brand_id, t.token_id, '0x' || md5(p.uid) || md5(p.sku || p.uid),
            CASE WHEN (hashtext('pending' || p.id) & 2147483647) % 50 = 0 THEN 'pending' ELSE 'minted' END, ?, ?,
            CASE WHEN (hashtext('pending' || p.id) & 2147483647) % 50 = 0 THEN NULL ELSE '0x' || md5('tx' || p.id) || md5('x' || p.id) END,
            CASE WHEN (hashtext('pending' || p.id) & 2147483647) % 50 = 0 THEN NULL ELSE 1 END,
            p.created_at + interval '1 minute', CASE WHEN (hashtext('pending' || p.id) & 2147483647) % 50 = 0 THEN NULL ELSE p.created_at + interval '2 minutes' END, true
       FROM unnest(?::int[], ?::text[]) AS t(product_id, token_id)
       JOIN app.products p ON p.id = t.product_id
     RETURNING product_id, status`,
    [chainId, passportContract.toLowerCase(), productIds, tokenIds],
  );
  // Ponder's rows of the minted ones: the passport (a few lost or stolen), its owner, its supply-chain events. The
  // minted ones are taken once, from the insert: the API's mint pump mints the pending claims meanwhile, and a
  // claim it settled between two of these statements would get a second owner row next to the one Ponder indexed.
  const mintedIds = inserted.rows.filter((r) => r.status === "minted").map((r) => r.product_id);
  const minted = `SELECT x.product_id, x.token_id::numeric AS token_id, x.data_hash, x.tx_hash, p.factory_id
                    FROM app.passports x JOIN app.products p ON p.id = x.product_id
                   WHERE x.product_id = ANY (?::int[])`;
  await db.raw(
    `INSERT INTO ??.passport (token_id, factory_id, data_hash, data_hash_version, status, tag_hash, minted_block, minted_at,
                              mint_tx_hash, updated_block, updated_tx_hash)
     SELECT m.token_id, m.factory_id, m.data_hash, 1, CASE (hashtext('lost' || m.product_id) & 2147483647) % 100 WHEN 0 THEN 1 WHEN 1 THEN 2 ELSE 0 END,
            CASE WHEN ${TAGGED} THEN '0x' || md5('tag' || m.product_id) || md5('t' || m.product_id) END,
            1, extract(epoch FROM now())::bigint, m.tx_hash, 1, m.tx_hash
       FROM (${minted}) m`,
    [ponderSchema, mintedIds],
  );
  await db.raw(
    `INSERT INTO ??.passport_owner (token_id, owner, updated_block)
     SELECT m.token_id, '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', 1 FROM (${minted}) m`,
    [ponderSchema, mintedIds],
  );
  await db.raw(
    `INSERT INTO ??.supply_chain_event (id, token_id, factory_id, stage, details_hash, block_number, timestamp, tx_hash, log_index)
     SELECT '0x' || md5('log' || m.product_id) || md5('l' || m.product_id) || '-' || s, m.token_id, m.factory_id, s, '0x' || md5('d' || m.product_id || s) || md5('e' || s), 1 + s,
            extract(epoch FROM now())::bigint, m.tx_hash, s
       FROM (${minted}) m CROSS JOIN generate_series(1, ${EVENTS_PER_PASSPORT}) s`,
    [ponderSchema, mintedIds],
  );
  // The chain's totals, as the handlers keep them, added to (the indexer may already have indexed mints of its own).
  await db.raw(
    `INSERT INTO ??.chain_totals AS c (id, passports, tags_assigned, supply_chain_events)
     SELECT 0, count(*), count(*) FILTER (WHERE ${TAGGED}), count(*) * ${EVENTS_PER_PASSPORT} FROM (${minted}) m
     ON CONFLICT (id) DO UPDATE SET passports = c.passports + excluded.passports, tags_assigned = c.tags_assigned + excluded.tags_assigned,
                                    supply_chain_events = c.supply_chain_events + excluded.supply_chain_events`,
    [ponderSchema, mintedIds],
  );
}

/** Which minted passports `m` have a tag on chain: one in five. */
const TAGGED = "(hashtext('tag' || m.product_id) & 2147483647) % 5 = 0";

/**
 * Runs `load` with the table's indexes other than its constraints' dropped, then builds them again from their own
 * definitions, as a restore does: a million rows go in several times faster than through every index row by row.
 */
async function withoutSecondaryIndexes(db: Knex, table: string, load: () => Promise<unknown>): Promise<void> {
  const { rows } = await db.raw<{ rows: Array<{ name: string; definition: string }> }>(
    `SELECT n.nspname || '.' || quote_ident(i.relname) AS name, pg_get_indexdef(i.oid) AS definition
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_namespace n ON n.oid = i.relnamespace
      WHERE x.indrelid = ?::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
    [table],
  );
  for (const index of rows) await db.raw(`DROP INDEX ${index.name}`);
  await load();
  await db.raw("SET maintenance_work_mem = '512MB'");
  for (const index of rows) await db.raw(index.definition);
  await db.raw("RESET maintenance_work_mem");
}
