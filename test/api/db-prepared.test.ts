// Hot point reads run as named prepared statements (db/knex.ts `prepared`): planned once per connection, and still
// right when a migration (or Ponder's new views) changes the columns under them.
import { expect } from "chai";
import { compiledOnce, createDb, prepared, type Knex } from "../../api/src/db/knex";
import { createTestDatabase } from "../support/hooks";

describe("prepared statements", () => {
  let db: Knex;

  before(async () => {
    // One connection, so every read below meets the statement that connection prepared.
    db = createDb(await createTestDatabase("prepared"), 1);
    await db.raw("CREATE TABLE prepared_probe (id int PRIMARY KEY, label text)");
    await db.raw("INSERT INTO prepared_probe VALUES (1, 'one'), (2, 'two')");
  });

  after(async () => {
    await db?.destroy();
  });

  const read = (id: number) => prepared(db("prepared_probe")).where({ id }).first("*");

  it("are prepared on the connection once, by name, and answer each value bound to them", async () => {
    expect(await read(1)).to.deep.equal({ id: 1, label: "one" });
    expect(await read(2)).to.deep.equal({ id: 2, label: "two" });
    expect(await read(3)).to.equal(undefined);
    const statements = await db.raw<{ rows: Array<{ name: string; statement: string }> }>("SELECT name, statement FROM pg_prepared_statements");
    const probe = statements.rows.filter((s) => s.statement.includes("prepared_probe"));
    expect(probe, "one statement however many values").to.have.length(1);
    expect(probe[0]!.name).to.match(/^pr\d+_/);
  });

  it("leaves a statement not marked unprepared", async () => {
    await db("prepared_probe").where({ id: 1 }).first("label");
    const statements = await db.raw<{ rows: Array<{ statement: string }> }>("SELECT statement FROM pg_prepared_statements");
    expect(statements.rows.filter((s) => s.statement.includes("prepared_probe")).map((s) => s.statement)).to.have.length(1);
  });

  it("prepares again when the table's columns change under the statement, instead of failing the read", async () => {
    await read(1);
    await db.raw("ALTER TABLE prepared_probe ADD COLUMN colour text DEFAULT 'blue'");
    expect(await read(1)).to.deep.equal({ id: 1, label: "one", colour: "blue" });
    expect(await read(2)).to.deep.equal({ id: 2, label: "two", colour: "blue" });
  });

  it("builds a compiled-once statement's SQL on its first run only, each run with its own values beside the constants", async () => {
    let builds = 0;
    const byIdAndLabel = compiledOnce<{ id: number; label: string }, "id" | "label">((knex, param) => {
      builds += 1;
      // A constant bound by knex itself (the limit) stays as built; the parameters take each run's values.
      return knex("prepared_probe").where("id", param("id")).orWhere("label", param("label")).orderBy("id").limit(5).select("id", "label");
    });
    expect(await byIdAndLabel(db, { id: 1, label: "two" })).to.deep.equal([{ id: 1, label: "one" }, { id: 2, label: "two" }]);
    expect(await byIdAndLabel(db, { id: 2, label: "none" })).to.deep.equal([{ id: 2, label: "two" }]);
    expect(await byIdAndLabel(db, { id: 9, label: "none" })).to.deep.equal([]);
    expect(builds).to.equal(1);
    let error: Error | undefined;
    await byIdAndLabel(db, { id: 1 }).catch((e: Error) => (error = e));
    expect(error?.message).to.include("no value for the statement's parameter label");
  });

  it("builds a statement once per shape (a schema named in it), each answering from its own table", async () => {
    await db.raw("CREATE SCHEMA IF NOT EXISTS shape_b");
    await db.raw("CREATE TABLE shape_b.prepared_probe (id int PRIMARY KEY, label text)");
    await db.raw("INSERT INTO shape_b.prepared_probe VALUES (1, 'b-one')");
    const built: string[] = [];
    const labelIn = compiledOnce<{ label: string }, "id">((knex, param, schema) => {
      built.push(schema);
      return knex.withSchema(schema).from("prepared_probe").where("id", param("id")).select("label");
    });
    for (let round = 0; round < 2; round += 1) {
      expect(await labelIn(db, { id: 1 }, "public")).to.deep.equal([{ label: "one" }]);
      expect(await labelIn(db, { id: 1 }, "shape_b")).to.deep.equal([{ label: "b-one" }]);
    }
    expect(built).to.deep.equal(["public", "shape_b"]);
  });

  it("passes a statement's own errors on", async () => {
    let error: (Error & { code?: string }) | undefined;
    await prepared(db("prepared_probe")).where({ missing: 1 }).first("*").catch((e: Error) => (error = e));
    expect(error?.code).to.equal("42703");
  });
});
