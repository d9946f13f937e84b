// Usage meters of brand accounts: monthly counters per meter, hourly request counts and per-endpoint call counts.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // One row per brand, UTC month ("YYYY-MM") and meter; limits are enforced by a conditional upsert on this row.
  await knex.schema.withSchema("app").createTable("usage_monthly", (t) => {
    t.integer("brand_id").notNullable().references("id").inTable("app.brands").onDelete("CASCADE");
    t.specificType("period", "char(7)").notNullable();
    t.text("meter").notNullable();
    t.integer("count").notNullable().defaultTo(0);
    t.primary(["brand_id", "period", "meter"]);
  });
  await knex.raw(
    `ALTER TABLE app.usage_monthly ADD CONSTRAINT usage_monthly_meter_check CHECK (meter IN ('api_calls', 'certs', 'scans', 'carbon_ratings'))`,
  );
  await knex.raw(`ALTER TABLE app.usage_monthly ADD CONSTRAINT usage_monthly_period_check CHECK (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')`);

  // Requests per brand and UTC hour, for the hourly rate limit; rows older than two days are pruned as hours start.
  await knex.schema.withSchema("app").createTable("usage_hourly", (t) => {
    t.integer("brand_id").notNullable().references("id").inTable("app.brands").onDelete("CASCADE");
    t.timestamp("hour", { useTz: true }).notNullable();
    t.integer("requests").notNullable().defaultTo(0);
    t.primary(["brand_id", "hour"]);
  });

  // Calls per brand, month and route pattern ("GET /api/v1/products/:uid"), for the usage endpoint's breakdown.
  await knex.schema.withSchema("app").createTable("usage_endpoints", (t) => {
    t.integer("brand_id").notNullable().references("id").inTable("app.brands").onDelete("CASCADE");
    t.specificType("period", "char(7)").notNullable();
    t.text("endpoint").notNullable();
    t.integer("calls").notNullable().defaultTo(0);
    t.primary(["brand_id", "period", "endpoint"]);
  });

  // Meters one API call in a single statement, so the brand's counter rows are locked for one statement rather than
  // for a transaction's round trips (all of a brand's calls queue on those rows). The monthly quota is checked
  // first; a call refused by the hourly limit gives its monthly unit back before anyone can see it, so a refused
  // call counts against neither. Limits of 0 refuse without creating a row.
  await knex.raw(`
    CREATE FUNCTION app.meter_call(p_brand int, p_period char(7), p_hour timestamptz, p_endpoint text,
                                   p_monthly_limit int, p_hourly_limit int, p_prune_before timestamptz)
    RETURNS TABLE (outcome text, calls int, requests int)
    LANGUAGE plpgsql AS $$
    DECLARE
      v_calls int;
      v_requests int;
    BEGIN
      INSERT INTO app.usage_monthly AS u (brand_id, period, meter, count)
        SELECT p_brand, p_period, 'api_calls', 1 WHERE p_monthly_limit > 0
        ON CONFLICT (brand_id, period, meter) DO UPDATE SET count = u.count + 1 WHERE u.count < p_monthly_limit
        RETURNING u.count INTO v_calls;
      IF v_calls IS NULL THEN
        SELECT m.count INTO v_calls FROM app.usage_monthly m
          WHERE m.brand_id = p_brand AND m.period = p_period AND m.meter = 'api_calls';
        SELECT h.requests INTO v_requests FROM app.usage_hourly h WHERE h.brand_id = p_brand AND h.hour = p_hour;
        RETURN QUERY SELECT 'monthly_limit'::text, coalesce(v_calls, 0), coalesce(v_requests, 0);
        RETURN;
      END IF;

      INSERT INTO app.usage_hourly AS h (brand_id, hour, requests)
        SELECT p_brand, p_hour, 1 WHERE p_hourly_limit > 0
        ON CONFLICT (brand_id, hour) DO UPDATE SET requests = h.requests + 1 WHERE h.requests < p_hourly_limit
        RETURNING h.requests INTO v_requests;
      IF v_requests IS NULL THEN
        UPDATE app.usage_monthly m SET count = m.count - 1
          WHERE m.brand_id = p_brand AND m.period = p_period AND m.meter = 'api_calls'
          RETURNING m.count INTO v_calls;
        SELECT h.requests INTO v_requests FROM app.usage_hourly h WHERE h.brand_id = p_brand AND h.hour = p_hour;
        RETURN QUERY SELECT 'hourly_limit'::text, v_calls, coalesce(v_requests, 0);
        RETURN;
      END IF;

      INSERT INTO app.usage_endpoints AS e (brand_id, period, endpoint, calls) VALUES (p_brand, p_period, p_endpoint, 1)
        ON CONFLICT (brand_id, period, endpoint) DO UPDATE SET calls = e.calls + 1;
      -- The first request of an hour sweeps the brand's old hours, so the table stays small without a job.
      IF v_requests = 1 THEN
        DELETE FROM app.usage_hourly h WHERE h.brand_id = p_brand AND h.hour < p_prune_before;
      END IF;
      RETURN QUERY SELECT 'admitted'::text, v_calls, v_requests;
    END
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP FUNCTION app.meter_call(int, char(7), timestamptz, text, int, int, timestamptz)");
  await knex.schema.withSchema("app").dropTable("usage_endpoints");
  await knex.schema.withSchema("app").dropTable("usage_hourly");
  await knex.schema.withSchema("app").dropTable("usage_monthly");
}
