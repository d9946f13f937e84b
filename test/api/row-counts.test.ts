// The counts GET /api/stats reads without counting whole tables (migration 043's triggers) against count(*) of the
// same rows, through every way rows come and go: single and batch inserts, state changes, cascaded deletes,
// TRUNCATE, concurrent writers, and a bulk load with the triggers off followed by app.recount_rows().
import { expect } from "chai";
import { createBrand, getBrand, type BrandRecord } from "../../api/src/brands/service";
import { createDb, type Knex } from "../../api/src/db/knex";
import * as rowCounts from "../../api/src/db/migrations/043-row-counts";
import { tokenIdOf } from "../../api/src/passports/content";
import { registerProduct } from "../../api/src/products/service";
import { appCounts } from "../../api/src/stats/stats.repo";
import { createTestDatabase } from "../support/hooks";

describe("row counts for /api/stats (migration 043)", () => {
  let db: Knex;
  let brand: BrandRecord;

  before(async function () {
    this.timeout(60_000);
    db = createDb(await createTestDatabase("row-counts"), 8);
    await createBrand(db, { slug: "count-brand", name: "Count Brand", uidPrefix: "CNT" });
    brand = (await getBrand(db, "count-brand"))!;
  });
  after(() => db?.destroy());

  /** What count(*) says, and what the kept counts say, in one statement (one snapshot). */
  async function both(): Promise<{ counted: Record<string, number>; kept: Record<string, number> }> {
    const counted = (
      await db.raw<{ rows: Array<Record<string, number>> }>(
        `SELECT (SELECT count(*) FROM app.products) AS products,
                (SELECT count(*) FROM app.passports WHERE status = 'minted') AS certificates_issued,
                (SELECT count(*) FROM app.scan_events) AS scans`,
      )
    ).rows[0]!;
    const { products, certificates_issued, scans } = await appCounts(db);
    return { counted, kept: { products, certificates_issued, scans } };
  }
  async function expectTrue(what: string): Promise<Record<string, number>> {
    const { counted, kept } = await both();
    expect(kept, what).to.deep.equal(counted);
    return kept;
  }

  async function products(n: number, prefix: string): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const { uid } = await registerProduct(db, brand, { sku: `${prefix}-${i}`, name: `Counted ${prefix} ${i}`, category: "t-shirt", price: 100 });
      ids.push((await db("app.products").where({ uid }).first<{ id: number }>("id"))!.id);
    }
    return ids;
  }
  /** Copies of product `from`, `n` of them in one statement. */
  async function copies(from: number, n: number, prefix: string): Promise<number[]> {
    const { rows } = await db.raw<{ rows: Array<{ id: number }> }>(
      `INSERT INTO app.products (brand_id, uid, sku, name, category, price, currency, fiber_composition, certifications, care_instructions, provenance, carbon_kg, carbon_rating)
       SELECT brand_id, ? || s, ? || s, name, category, price, currency, fiber_composition, certifications, care_instructions, provenance, carbon_kg, carbon_rating
         FROM app.products CROSS JOIN generate_series(1, ?) s WHERE id = ? RETURNING id`,
      [`${prefix}UID`, `${prefix}-SKU-`, n, from],
    );
    return rows.map((r) => r.id);
  }
  async function claim(productIds: number[], status: "pending" | "minted"): Promise<void> {
    const rows = await db("app.products").whereIn("id", productIds).select<Array<{ id: number; uid: string }>>("id", "uid");
    await db("app.passports").insert(
      rows.map((p) => ({
        product_id: p.id,
        brand_id: brand.id,
        token_id: tokenIdOf(p.uid),
        data_hash: `0x${"1".repeat(64)}`,
        status,
        chain_id: 31337,
        contract_address: `0x${"2".repeat(40)}`,
      })),
    );
  }

  it("keeps count through inserts, batch inserts, state changes and cascaded deletes", async () => {
    expect(await expectTrue("empty")).to.deep.equal({ products: 0, certificates_issued: 0, scans: 0 });
    const single = await products(3, "S");
    const batch = await copies(single[0]!, 40, "B");
    expect((await expectTrue("after 3 products and a batch of 40")).products).to.equal(43);

    await claim(batch.slice(0, 10), "pending");
    await claim(batch.slice(10, 15), "minted");
    expect((await expectTrue("5 minted, 10 pending")).certificates_issued).to.equal(5);
    // Minted in one statement, one moved back (a reorganisation), one failed: only 'minted' counts.
    await db("app.passports").whereIn("product_id", batch.slice(0, 10)).update({ status: "minted" });
    await db("app.passports").where({ product_id: batch[0] }).update({ status: "pending" });
    await db("app.passports").where({ product_id: batch[1] }).update({ status: "failed" });
    await db("app.passports").where({ product_id: batch[12] }).update({ tx_hash: `0x${"3".repeat(64)}` });
    expect((await expectTrue("state changes")).certificates_issued).to.equal(13);

    await db("app.scan_events").insert(batch.slice(10, 15).map((product_id) => ({ product_id, verified: true })));
    await db.raw("INSERT INTO app.scan_events (product_id, verified) SELECT ?, false FROM generate_series(1, 25)", [batch[11]]);
    expect((await expectTrue("scans")).scans).to.equal(30);

    // A product's deletion takes its passport and scans with it (ON DELETE CASCADE), and the counts follow.
    await db("app.products").whereIn("id", [batch[11]!, batch[12]!, single[2]!]).del();
    const after = await expectTrue("cascaded deletes");
    expect(after).to.deep.equal({ products: 40, certificates_issued: 11, scans: 3 });

    // A rolled-back transaction changes no count.
    await db
      .transaction(async (trx) => {
        await trx("app.scan_events").insert({ product_id: batch[13], verified: true });
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await expectTrue("rollback")).to.deep.equal(after);
  });

  it("keeps count with writers at once on several connections", async function () {
    this.timeout(60_000);
    const [target] = await products(1, "C");
    const before = (await expectTrue("before")).scans;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        (async () => {
          for (let i = 0; i < 25; i += 1) await db.transaction((trx) => trx("app.scan_events").insert({ product_id: target, verified: i % 2 === 0 }));
        })(),
      ),
    );
    expect((await expectTrue("200 scans from 8 connections")).scans).to.equal(before + 200);
  });

  it("starts again from zero after TRUNCATE, and app.recount_rows() restores counts after a load without triggers", async () => {
    await db.raw("TRUNCATE app.scan_events");
    expect((await expectTrue("truncated")).scans).to.equal(0);

    // A bulk load with the triggers off (session_replication_role = replica, as bench:volume's seed): the kept count
    // misses it until recounted.
    const [from] = await products(1, "R");
    await db.transaction(async (trx) => {
      await trx.raw("SET LOCAL session_replication_role = replica");
      await trx.raw("INSERT INTO app.scan_events (product_id, verified) SELECT ?, true FROM generate_series(1, 7)", [from]);
    });
    const { counted, kept } = await both();
    expect(counted.scans - kept.scans, "the load was not counted").to.equal(7);
    await db.raw("SELECT app.recount_rows()");
    expect((await expectTrue("recounted")).scans).to.equal(7);
  });

  it("is undone by its migration's down, and counts from the tables when done again", async () => {
    await claim(await products(2, "D"), "minted");
    await rowCounts.down(db);
    const gone = await db.raw<{ rows: Array<{ table: string | null; triggers: number }> }>(
      "SELECT to_regclass('app.row_counts')::text AS table, (SELECT count(*)::int FROM pg_trigger WHERE tgname LIKE 'row_counts_%') AS triggers",
    );
    expect(gone.rows[0]).to.deep.equal({ table: null, triggers: 0 });
    await db.transaction((trx) => rowCounts.up(trx));
    const again = await expectTrue("done again");
    expect(again.certificates_issued).to.be.greaterThan(0);
  });
});
