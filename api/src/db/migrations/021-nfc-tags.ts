// NFC tags as records (issue 12): each tag a brand provisions, its chip type and key version, the last SUN read
// counter accepted, and the product it is bound to; and every tap the scan page or GET /api/scan/{uid} verified,
// with its verdict, for the dashboard's analytics.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // tag_uid: the chip's 7-byte UID as 14 upper-case hex digits. last_counter -1: no tap accepted yet. The binding to
  // a product is also anchored on chain (ProductPassport.assignTag, by tag hash); product_id mirrors it here.
  await knex.raw(`
    CREATE TABLE app.tags (
      id bigserial PRIMARY KEY,
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      tag_uid text NOT NULL CHECK (tag_uid ~ '^[0-9A-F]{14}$'),
      chip text NOT NULL CHECK (chip IN ('NTAG215', 'NTAG424')),
      key_version integer NOT NULL DEFAULT 1 CHECK (key_version >= 1),
      last_counter integer NOT NULL DEFAULT -1 CHECK (last_counter BETWEEN -1 AND 16777215),
      status text NOT NULL DEFAULT 'unassigned' CHECK (status IN ('unassigned', 'active', 'retired')),
      product_id integer REFERENCES app.products (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_tap_at timestamptz
    )`);
  await knex.raw("CREATE UNIQUE INDEX tags_uid ON app.tags (tag_uid)");
  await knex.raw("CREATE INDEX tags_brand ON app.tags (brand_id, id DESC)");
  await knex.raw("CREATE INDEX tags_product ON app.tags (product_id) WHERE product_id IS NOT NULL");

  // Every verified tap (not only the counted scans of app.scan_events): the verdict, the counter the tag sent, and a
  // coarse client region (never the address itself) for clone signals.
  await knex.raw(`
    CREATE TABLE app.tag_taps (
      id bigserial PRIMARY KEY,
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      product_id integer NOT NULL REFERENCES app.products (id) ON DELETE CASCADE,
      tag_id bigint REFERENCES app.tags (id) ON DELETE SET NULL,
      verdict text NOT NULL CHECK (verdict IN ('authentic', 'replayed', 'invalid', 'unknown_tag', 'not_bound', 'unverified')),
      counter integer,
      client_region text,
      tapped_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw("CREATE INDEX tag_taps_brand_time ON app.tag_taps (brand_id, tapped_at DESC)");
  await knex.raw("CREATE INDEX tag_taps_tag_time ON app.tag_taps (tag_id, tapped_at DESC) WHERE tag_id IS NOT NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE app.tag_taps");
  await knex.raw("DROP TABLE app.tags");
}
