// Refunds whose answer was lost (issue 24): the order state refund_unknown and the refund state unknown. The amount
// of an unknown refund stays reserved (counted in refunded_minor) until the reconciliation job learns from the gateway
// whether it was made; the job claims unknown refunds by next_check_at as it claims pending ones.
import type { Knex } from "knex";

const STATES = ["created", "pending", "paid", "verified", "failed", "cancelled", "expired", "refund_pending", "refund_unknown", "refunded"];
const OLD_STATES = STATES.filter((state) => state !== "refund_unknown");
const list = (states: readonly string[]) => states.map((state) => `'${state}'`).join(", ");

async function orderStates(knex: Knex, states: readonly string[]): Promise<void> {
  await knex.raw(`ALTER TABLE app.orders DROP CONSTRAINT orders_state_check, ADD CONSTRAINT orders_state_check CHECK (state IN (${list(states)}))`);
  await knex.raw(`ALTER TABLE app.order_transitions
                    DROP CONSTRAINT order_transitions_from_state_check, ADD CONSTRAINT order_transitions_from_state_check CHECK (from_state IN (${list(states)})),
                    DROP CONSTRAINT order_transitions_to_state_check, ADD CONSTRAINT order_transitions_to_state_check CHECK (to_state IN (${list(states)}))`);
}

async function refundStates(knex: Knex, states: readonly string[]): Promise<void> {
  await knex.raw(`ALTER TABLE app.order_refunds DROP CONSTRAINT order_refunds_state_check, ADD CONSTRAINT order_refunds_state_check CHECK (state IN (${list(states)}))`);
  await knex.raw("DROP INDEX app.order_refunds_to_check");
  await knex.raw(`CREATE INDEX order_refunds_to_check ON app.order_refunds (next_check_at) WHERE state IN (${list(states.filter((s) => s === "pending" || s === "unknown"))})`);
}

export async function up(knex: Knex): Promise<void> {
  await orderStates(knex, STATES);
  await refundStates(knex, ["requested", "pending", "unknown", "refunded", "failed"]);
}

export async function down(knex: Knex): Promise<void> {
  // An unknown refund is kept reserved as a pending one, for a person to settle at the gateway's portal.
  await knex("app.order_refunds").where({ state: "unknown" }).update({ state: "pending" });
  await knex("app.orders").where({ state: "refund_unknown" }).update({ state: "refund_pending" });
  await knex("app.order_transitions").where({ to_state: "refund_unknown" }).update({ to_state: "refund_pending" });
  await knex("app.order_transitions").where({ from_state: "refund_unknown" }).update({ from_state: "refund_pending" });
  await refundStates(knex, ["requested", "pending", "refunded", "failed"]);
  await orderStates(knex, OLD_STATES);
}
