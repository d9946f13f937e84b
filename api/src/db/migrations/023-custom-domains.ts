// Custom domains (issue 14): one hostname per brand, its DNS verification (CNAME to us, TXT token at an underscore
// label) step by step, and when the checker looks at it next. Host routing and Caddy's ask endpoint read it by
// hostname; the checker claims due rows by next_check_at. A removed domain stays as a row (status removed), so its
// hostname answers 404 rather than the main site; the hostname is free for anyone to add again.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema("app").createTable("custom_domains", (t) => {
    t.increments("id").primary();
    // One domain per brand that is not removed (unique index below): to change it, remove it and add another.
    t.integer("brand_id").notNullable().references("id").inTable("app.brands").onDelete("CASCADE");
    // Lower case, without a trailing dot: the key Host routing and the ask endpoint look up.
    t.text("hostname").notNullable();
    // Published by the brand in a TXT record at _passport-verify.<hostname>: public once there, so stored as it is.
    t.text("verify_token").notNullable();
    t.text("status").notNullable().defaultTo("pending");
    // Each step's last result (null: not checked yet), what it found, and when.
    t.boolean("cname_ok");
    t.text("cname_detail");
    t.timestamp("cname_checked_at", { useTz: true });
    t.boolean("txt_ok");
    t.text("txt_detail");
    t.timestamp("txt_checked_at", { useTz: true });
    // Checks made in the current window (the backoff's exponent); the window ends DOMAIN_VERIFY_WINDOW_HOURS later.
    t.integer("checks").notNullable().defaultTo(0);
    t.timestamp("window_started_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // When the checker looks next; null once the domain is verified or failed.
    t.timestamp("next_check_at", { useTz: true });
    // The last "Check now": at most one per domain in a short interval, whichever replica answers.
    t.timestamp("manual_check_at", { useTz: true });
    t.timestamp("verified_at", { useTz: true });
    t.timestamp("failed_at", { useTz: true });
    t.text("failure_reason");
    t.timestamp("removed_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE app.custom_domains ADD CONSTRAINT custom_domains_status_check CHECK (status IN ('pending', 'verified', 'failed', 'removed'))`);
  await knex.raw(`ALTER TABLE app.custom_domains ADD CONSTRAINT custom_domains_hostname_check CHECK (hostname = lower(hostname) AND length(hostname) BETWEEN 1 AND 253)`);
  // A hostname belongs to one brand, and a brand has one domain, among the domains not removed.
  await knex.raw("CREATE UNIQUE INDEX custom_domains_live_hostname ON app.custom_domains (hostname) WHERE status <> 'removed'");
  await knex.raw("CREATE UNIQUE INDEX custom_domains_live_brand ON app.custom_domains (brand_id) WHERE status <> 'removed'");
  // Host routing's lookup, removed rows included.
  await knex.raw("CREATE INDEX custom_domains_hostname ON app.custom_domains (hostname)");
  // The checker's claim: the due pending rows, oldest first.
  await knex.raw("CREATE INDEX custom_domains_due ON app.custom_domains (next_check_at) WHERE status = 'pending'");
  // A domain starting or stopping being served is a routing change every API process must hear about at once: the
  // brand_auth channel (migration 007) clears the per-process caches. Only status changes (removal is one) and
  // deletions (with their brand), not the checker's every attempt.
  await knex.raw(`CREATE TRIGGER custom_domains_status_changed AFTER UPDATE OF status ON app.custom_domains
                  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION app.notify_brand_auth()`);
  await knex.raw(`CREATE TRIGGER custom_domains_removed AFTER DELETE ON app.custom_domains
                  FOR EACH STATEMENT EXECUTE FUNCTION app.notify_brand_auth()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER IF EXISTS custom_domains_removed ON app.custom_domains");
  await knex.raw("DROP TRIGGER IF EXISTS custom_domains_status_changed ON app.custom_domains");
  await knex.schema.withSchema("app").dropTableIfExists("custom_domains");
}
