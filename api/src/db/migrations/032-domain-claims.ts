// A custom domain is held only by a brand that proved it (issue 24): a hostname is unique among verified domains
// only, so a pending or failed claim holds nothing against another brand's; whoever verifies first holds it, and the
// other claims of that hostname are released (status released, with the reason), kept for their brands to see.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE app.custom_domains DROP CONSTRAINT custom_domains_status_check,
                  ADD CONSTRAINT custom_domains_status_check CHECK (status IN ('pending', 'verified', 'failed', 'released', 'removed'))`);
  await knex.raw("DROP INDEX app.custom_domains_live_hostname");
  await knex.raw("CREATE UNIQUE INDEX custom_domains_verified_hostname ON app.custom_domains (hostname) WHERE status = 'verified'");
}

export async function down(knex: Knex): Promise<void> {
  // One claim per hostname again: released claims and every other claim beside a verified or an older one go.
  await knex.raw(`UPDATE app.custom_domains d SET status = 'removed', removed_at = now(), next_check_at = NULL
                   WHERE d.status <> 'removed' AND (d.status = 'released' OR EXISTS (
                     SELECT 1 FROM app.custom_domains o WHERE o.hostname = d.hostname AND o.id <> d.id AND o.status NOT IN ('removed', 'released')
                        AND (o.status = 'verified' OR (d.status <> 'verified' AND o.id < d.id))))`);
  await knex.raw("DROP INDEX app.custom_domains_verified_hostname");
  await knex.raw("CREATE UNIQUE INDEX custom_domains_live_hostname ON app.custom_domains (hostname) WHERE status <> 'removed'");
  await knex.raw(`ALTER TABLE app.custom_domains DROP CONSTRAINT custom_domains_status_check,
                  ADD CONSTRAINT custom_domains_status_check CHECK (status IN ('pending', 'verified', 'failed', 'removed'))`);
}
