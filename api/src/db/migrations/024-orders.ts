// Orders and payments (issue 13): a shopper's order of one product and every change of its state, the brand's payment
// gateway credentials (encrypted) and whether it sells at all, and the refunds made from the dashboard.
import type { Knex } from "knex";

const STATES = "'created', 'pending', 'paid', 'verified', 'failed', 'cancelled', 'expired', 'refund_pending', 'refunded'";
const METHODS = "'bkash', 'nagad', 'sslcommerz', 'cash_qr'";

export async function up(knex: Knex): Promise<void> {
  // Off until the brand turns it on in Gateway Keys: a scan page sells nothing by default.
  await knex.raw("ALTER TABLE app.brands ADD COLUMN sales_enabled boolean NOT NULL DEFAULT false");

  // amount_minor: the product's price in minor units (poisha, cents) when the order was made; never from a client.
  // reference: the merchant reference the gateway gets (bKash merchantInvoiceNumber, Nagad orderId, SSLCommerz
  // tran_id). next_check_at: when the reconciliation job looks at the order next; claimed_until: a callback or the
  // job is talking to the gateway about it until then (one at a time). cash_qr_token_hash: SHA-256 of the Cash QR's
  // confirmation token.
  await knex.raw(`
    CREATE TABLE app.orders (
      id text PRIMARY KEY CHECK (id ~ '^ord_[0-9A-Za-z]{22}$'),
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      product_id integer NOT NULL REFERENCES app.products (id),
      uid text NOT NULL,
      method text NOT NULL CHECK (method IN (${METHODS})),
      state text NOT NULL DEFAULT 'created' CHECK (state IN (${STATES})),
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
      reference text NOT NULL UNIQUE CHECK (reference ~ '^[A-Za-z0-9]{1,20}$'),
      gateway_payment_id text,
      gateway_trx_id text,
      contact jsonb NOT NULL DEFAULT '{}'::jsonb,
      client_ip text,
      cash_qr_token_hash bytea,
      failure_reason text,
      expires_at timestamptz NOT NULL,
      paid_at timestamptz,
      verified_at timestamptz,
      refunded_minor bigint NOT NULL DEFAULT 0,
      next_check_at timestamptz,
      claimed_until timestamptz,
      check_attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (refunded_minor >= 0 AND refunded_minor <= amount_minor),
      CHECK ((method = 'cash_qr') = (cash_qr_token_hash IS NOT NULL))
    )`);
  await knex.raw("CREATE INDEX orders_brand_created ON app.orders (brand_id, created_at DESC)");
  await knex.raw("CREATE UNIQUE INDEX orders_gateway_payment ON app.orders (method, gateway_payment_id) WHERE gateway_payment_id IS NOT NULL");
  await knex.raw("CREATE INDEX orders_to_check ON app.orders (next_check_at) WHERE state IN ('created', 'pending', 'paid')");

  // Every change of an order's state, in order: from_state is null for the order's creation.
  await knex.raw(`
    CREATE TABLE app.order_transitions (
      id bigserial PRIMARY KEY,
      order_id text NOT NULL REFERENCES app.orders (id) ON DELETE CASCADE,
      from_state text CHECK (from_state IN (${STATES})),
      to_state text NOT NULL CHECK (to_state IN (${STATES})),
      reason text NOT NULL,
      actor text NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw("CREATE INDEX order_transitions_order ON app.order_transitions (order_id, id)");

  // One gateway's credentials per brand: the JSON of the fields, AES-256-GCM encrypted (orders/gateway-keys.ts), and
  // their masked hints for the dashboard. Cash QR has no credentials, only the switch.
  await knex.raw(`
    CREATE TABLE app.gateway_credentials (
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      method text NOT NULL CHECK (method IN (${METHODS})),
      ciphertext text,
      hints jsonb NOT NULL DEFAULT '{}'::jsonb,
      enabled boolean NOT NULL DEFAULT true,
      checked_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (brand_id, method),
      CHECK ((method = 'cash_qr') = (ciphertext IS NULL))
    )`);

  // Refunds, full or partial; the order's refunded_minor is their sum (requested, pending and refunded ones).
  // next_check_at: when the reconciliation job asks the gateway about a pending one (SSLCommerz settles them later).
  await knex.raw(`
    CREATE TABLE app.order_refunds (
      id bigserial PRIMARY KEY,
      order_id text NOT NULL REFERENCES app.orders (id) ON DELETE CASCADE,
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      reason text NOT NULL,
      state text NOT NULL CHECK (state IN ('requested', 'pending', 'refunded', 'failed')),
      gateway_refund_id text,
      actor text NOT NULL,
      next_check_at timestamptz,
      check_attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw("CREATE INDEX order_refunds_order ON app.order_refunds (order_id, id)");
  await knex.raw("CREATE INDEX order_refunds_to_check ON app.order_refunds (next_check_at) WHERE state = 'pending'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE app.order_refunds");
  await knex.raw("DROP TABLE app.gateway_credentials");
  await knex.raw("DROP TABLE app.order_transitions");
  await knex.raw("DROP TABLE app.orders");
  await knex.raw("ALTER TABLE app.brands DROP COLUMN sales_enabled");
}
