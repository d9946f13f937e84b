// Leases of API calls (metering/call-meter.ts): a process takes up to N calls at once, never more than the monthly
// and hourly limits leave, and gives back what it did not use. The limits stay exact; the round trips shrink.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION app.lease_calls(p_brand int, p_period char(7), p_hour timestamptz, p_want int,
                                    p_monthly_limit int, p_hourly_limit int, p_prune_before timestamptz)
    RETURNS TABLE (granted int, calls int, requests int)
    LANGUAGE plpgsql AS $$
    DECLARE
      v_calls int;
      v_requests int;
      v_grant int;
    BEGIN
      INSERT INTO app.usage_monthly (brand_id, period, meter, count) VALUES (p_brand, p_period, 'api_calls', 0)
        ON CONFLICT (brand_id, period, meter) DO NOTHING;
      SELECT m.count INTO v_calls FROM app.usage_monthly m
        WHERE m.brand_id = p_brand AND m.period = p_period AND m.meter = 'api_calls' FOR UPDATE;
      INSERT INTO app.usage_hourly (brand_id, hour, requests) VALUES (p_brand, p_hour, 0)
        ON CONFLICT (brand_id, hour) DO NOTHING;
      SELECT h.requests INTO v_requests FROM app.usage_hourly h WHERE h.brand_id = p_brand AND h.hour = p_hour FOR UPDATE;
      v_grant := greatest(0, least(p_want, p_monthly_limit - v_calls, p_hourly_limit - v_requests));
      IF v_grant > 0 THEN
        UPDATE app.usage_monthly m SET count = m.count + v_grant
          WHERE m.brand_id = p_brand AND m.period = p_period AND m.meter = 'api_calls';
        UPDATE app.usage_hourly h SET requests = h.requests + v_grant WHERE h.brand_id = p_brand AND h.hour = p_hour;
        -- The first lease of an hour sweeps the brand's old hours, so the table stays small without a job.
        IF v_requests = 0 THEN
          DELETE FROM app.usage_hourly h WHERE h.brand_id = p_brand AND h.hour < p_prune_before;
        END IF;
      END IF;
      RETURN QUERY SELECT v_grant, v_calls + v_grant, v_requests + v_grant;
    END
    $$`);
  await knex.raw(`
    CREATE FUNCTION app.release_calls(p_brand int, p_period char(7), p_hour timestamptz, p_count int)
    RETURNS void LANGUAGE sql AS $$
      UPDATE app.usage_monthly SET count = greatest(0, count - p_count)
        WHERE brand_id = p_brand AND period = p_period AND meter = 'api_calls';
      UPDATE app.usage_hourly SET requests = greatest(0, requests - p_count) WHERE brand_id = p_brand AND hour = p_hour;
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP FUNCTION app.release_calls(int, char(7), timestamptz, int)");
  await knex.raw("DROP FUNCTION app.lease_calls(int, char(7), timestamptz, int, int, int, timestamptz)");
}
