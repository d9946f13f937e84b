// `npm run bench:orders`: Cash QR orders placed and confirmed per second (POST /api/orders, then the cashier's POST
// /api/dashboard/cashier/confirm: pending → paid → verified with both events), and bKash callbacks handled per second
// (each an execute and a status query at the local bKash server, and two transitions); req/s, p50 and p99 of each.
// It starts its own Postgres, API and gateway servers, and stops them all.
import os from "node:os";
import { createBrand } from "../../api/src/brands/service";
import { saveGatewayKeys, setSalesEnabled } from "../../api/src/orders/gateway-keys";
import { registerProduct } from "../../api/src/products/service";
import { dashboardClient } from "../../test/support/dashboard";
import { startInProcessApi } from "../lib/api-process";
import { figuresTable, positiveInteger, runLoad, type LoadFigures } from "../lib/bench-load";
import { inBenchWorkspace, runBenchmark } from "../lib/bench-workspace";
import { startPaymentSims } from "../lib/payment-sims";
import { freePort } from "../lib/processes";

const CONNECTIONS = positiveInteger("BENCH_CONNECTIONS", 16);
const DURATION_S = positiveInteger("BENCH_DURATION", 10);
const WARMUP_S = positiveInteger("BENCH_WARMUP", 2);
/** bKash orders made ready (created at the gateway and approved there) for the callback run; each is called back once. */
const CALLBACKS = positiveInteger("BENCH_CALLBACKS", 1500);

type Figures = LoadFigures & { failures: number; outcomes: Record<string, number> };

/**
 * The load generator (see runLoad). `cash`: each connection places a Cash QR order and confirms it as the cashier,
 * again and again, for `durationMs`; a sample is the pair. `callbacks`: the connections share a list of callback URLs,
 * each requested once (redirects not followed).
 */
const WORKER = `
const { mode, base, uid, cookie, csrf, urls, connections, durationMs } = workerData;
const outcomes = {};
let failures = 0;
const count = (key) => (outcomes[key] = (outcomes[key] || 0) + 1);
async function cashCycle() {
  const order = await fetch(base + "/api/orders", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ uid, method: "cash_qr" }) });
  const placed = await order.json();
  if (order.status !== 201) { count("order " + order.status); return false; }
  const token = new URL(placed.data.next.confirm_url).hash.slice(3);
  const confirm = await fetch(base + "/api/dashboard/cashier/confirm", {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, "X-CSRF-Token": csrf },
    body: JSON.stringify({ order_id: placed.data.order_id, token }),
  });
  const confirmed = await confirm.json();
  if (confirm.status !== 200) { count("confirm " + confirm.status); return false; }
  count(confirmed.data.status);
  return true;
}
async function callback(url) {
  const res = await fetch(url, { redirect: "manual" });
  await res.arrayBuffer();
  count(String(res.status));
  return res.status === 303;
}
async function attempt(call) {
  try { return await call(); } catch (error) { count("error"); return false; }
}
let i = 0;
function next() {
  if (mode === "cash") return () => attempt(cashCycle);
  if (i >= urls.length) return undefined;
  const url = urls[i++];
  return () => attempt(() => callback(url));
}
const connection = () => timedLoop(durationMs, next, (ok) => { if (!ok) failures += 1; });
measure(Array.from({ length: connections }, () => connection), () => ({ outcomes, failures }));
`;

function load(data: Record<string, unknown>): Promise<Figures> {
  return runLoad<Omit<Figures, keyof LoadFigures>>(WORKER, { connections: CONNECTIONS, urls: [], ...data });
}

function report(rows: Array<{ name: string; figures: Figures }>): string[] {
  return figuresTable(
    ["target", "per s", "p50 ms", "p99 ms", "count", "failed", "outcomes"],
    rows.map(({ name, figures: f }) => ({
      name,
      figures: f,
      more: [String(f.requests), String(f.failures), Object.entries(f.outcomes).map(([outcome, n]) => `${outcome} ${n}`).join(", ")],
    })),
  );
}

async function main() {
  await inBenchWorkspace("bench-orders-", async ({ postgres, stopLater }) => {
    process.stdout.write("starting Postgres, the local payment gateways and the API…\n");
    const databaseUrl = await postgres();
    const sims = await startPaymentSims();
    stopLater(sims.stop);
    const api = await startInProcessApi({
      DATABASE_URL: databaseUrl,
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      BKASH_BASE_URL: sims.bkash.baseUrl,
      NAGAD_BASE_URL: sims.nagad.baseUrl,
      SSLCOMMERZ_BASE_URL: sims.sslcommerz.baseUrl,
      // One address places every order here: lift the per-client budgets out of the way.
      ORDERS_PER_CLIENT_HOUR: "10000000",
      ORDER_READS_PER_CLIENT_HOUR: "10000000",
    });
    stopLater(api.close);

    const { brand } = await createBrand(api.db, { slug: "bench-orders", name: "Bench Orders", uidPrefix: "BORD", plan: "growth" });
    const actor = { system: "bench:orders" };
    const keys = { db: api.db, config: api.config };
    await setSalesEnabled(keys, brand.id, actor, true);
    await saveGatewayKeys(keys, brand.id, actor, "cash_qr", { enabled: true });
    await saveGatewayKeys(keys, brand.id, actor, "bkash", { credentials: { ...sims.bkash.credentials }, enabled: true });
    const product = await registerProduct(api.db, { id: brand.id, slug: brand.slug, uidPrefix: brand.uidPrefix }, { sku: "BENCH-ORD-1", name: "Bench order tee", category: "t-shirt", fabric_type: "cotton", price: 990 });
    const cashier = await dashboardClient(api.url, api.db, brand.id, "cashier");

    process.stdout.write(`load: ${CONNECTIONS} connections (one worker thread), Node ${process.version}, ${os.cpus().length} CPUs\n`);
    process.stdout.write(`  Cash QR: place + confirm, ${DURATION_S} s after a ${WARMUP_S} s warm-up…\n`);
    const cashData = { mode: "cash", base: api.url, uid: product.uid, cookie: cashier.cookie, csrf: cashier.csrf };
    await load({ ...cashData, durationMs: WARMUP_S * 1000 });
    const cash = await load({ ...cashData, durationMs: DURATION_S * 1000 });

    process.stdout.write(`  bKash: preparing ${CALLBACKS} orders (created at the bKash server, approved there)…\n`);
    const callbackUrls: string[] = [];
    const prepare = async () => {
      while (callbackUrls.length < CALLBACKS) {
        callbackUrls.push("");
        const slot = callbackUrls.length - 1;
        const res = await fetch(`${api.url}/api/orders`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ uid: product.uid, method: "bkash" }) });
        if (res.status !== 201) throw new Error(`a bKash order answered ${res.status}: ${await res.text()}`);
        const { data } = (await res.json()) as { data: { order_id: string } };
        const row = await api.db("app.orders").where({ id: data.order_id }).first<{ gateway_payment_id: string }>("gateway_payment_id");
        callbackUrls[slot] = (await sims.bkash.approve({ paymentId: row!.gateway_payment_id })).redirect;
      }
    };
    await Promise.all(Array.from({ length: 8 }, prepare));
    process.stdout.write(`  bKash callbacks: each of the ${CALLBACKS} once, at most ${DURATION_S * 3} s…\n`);
    const callbacks = await load({ mode: "callbacks", urls: callbackUrls.slice(0, CALLBACKS), durationMs: DURATION_S * 3000 });
    const states = await api.db("app.orders").where({ brand_id: brand.id, method: "bkash" }).groupBy("state").select<Array<{ state: string; count: number }>>("state", api.db.raw("count(*)::int as count"));

    const lines = [
      ...report([
        { name: "Cash QR order placed + confirmed", figures: cash },
        { name: "bKash callback (execute + status)", figures: callbacks },
      ]),
      "",
      `Cash QR: ${cash.perSecond.toFixed(0)} orders placed and confirmed per second (p50 ${cash.p50Ms.toFixed(1)} ms, p99 ${cash.p99Ms.toFixed(1)} ms for the pair)`,
      `bKash: ${callbacks.perSecond.toFixed(0)} callbacks handled per second (p50 ${callbacks.p50Ms.toFixed(1)} ms, p99 ${callbacks.p99Ms.toFixed(1)} ms); bKash orders now ${states.map((s) => `${s.state} ${s.count}`).join(", ")}`,
    ];
    if (callbacks.requests < CALLBACKS) lines.push(`  (only ${callbacks.requests} of ${CALLBACKS} callbacks were sent in the time allowed)`);
    process.stdout.write(`\n${lines.join("\n")}\n`);
  });
}

runBenchmark(main);
