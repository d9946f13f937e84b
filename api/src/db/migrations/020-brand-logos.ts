// Brand logos uploaded in the dashboard's brand editor, kept in Postgres (the one store) and served by the API at an
// address that names their content hash, so browsers may cache them for good.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // One current logo per brand: a new upload replaces it and its address changes with its hash. The bytes are the
  // re-encoded image (brands/logo.ts), never the file as uploaded.
  await knex.raw(`
    CREATE TABLE app.brand_logos (
      brand_id integer PRIMARY KEY REFERENCES app.brands (id) ON DELETE CASCADE,
      content_hash text NOT NULL CHECK (content_hash ~ '^[0-9a-f]{64}$'),
      media_type text NOT NULL CHECK (media_type IN ('image/png', 'image/webp')),
      width integer NOT NULL CHECK (width > 0),
      height integer NOT NULL CHECK (height > 0),
      bytes bytea NOT NULL,
      uploaded_by integer REFERENCES app.brand_users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE app.brand_logos");
}
