// The operator CLI's dashboard-webhook commands, run through the CLI's own entry (`main`) on a real database.
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { createDb, type Knex } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { runAdmin } from "../support/admin-cli";
import { createTestDatabase } from "../support/hooks";

describe("operator CLI: dashboard webhook", () => {
  let databaseUrl: string;
  let db: Knex;

  before(async () => {
    databaseUrl = await createTestDatabase("webhooks_admin");
    db = createDb(databaseUrl, 2);
    await migrateLatest(db);
    await createBrand(db, { slug: "cli-brand", name: "CLI Brand", uidPrefix: "CLI" });
  });
  after(() => db?.destroy());

  const admin = (...args: string[]) => runAdmin(args, { SERVICE_MODE: "local", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" });

  it("sets, shows, rotates and removes a brand's dashboard webhook; refuses a private URL", async function () {
    this.timeout(120_000);
    const set = await admin("set-dashboard-webhook", "--brand", "cli-brand", "--url", "http://127.0.0.1:9/hooks", "--json");
    expect(set.code, set.stderr).to.equal(0);
    const created = JSON.parse(set.stdout);
    expect(created.signing_secret).to.match(/^whsec_/);
    expect(created.events).to.deep.equal(["order.paid", "cert.issued", "scan.verified", "tag.assigned"]);

    const moved = JSON.parse((await admin("set-dashboard-webhook", "--brand", "cli-brand", "--url", "http://127.0.0.1:9/v2", "--json")).stdout);
    expect(moved).to.include({ webhook_id: created.webhook_id, url: "http://127.0.0.1:9/v2", signing_secret: null });

    const refused = await admin("set-dashboard-webhook", "--brand", "cli-brand", "--url", "http://169.254.169.254/latest/meta-data/");
    expect(refused.code, refused.stderr).to.equal(2);
    expect(refused.stderr).to.contain("link-local");

    await db("app.webhook_endpoints").where({ id: created.webhook_id }).update({ status: "disabled", disabled_reason: "the receiver answered 410 Gone" });
    const shown = await admin("show-dashboard-webhook", "--brand", "cli-brand");
    expect(shown.code, shown.stderr).to.equal(0);
    expect(shown.stdout).to.contain("DISABLED").and.to.contain("410 Gone");

    const rotated = JSON.parse((await admin("rotate-dashboard-webhook-secret", "--brand", "cli-brand", "--json")).stdout);
    expect(rotated.signing_secret).to.match(/^whsec_/).and.not.equal(created.signing_secret);
    expect(rotated.previous_secret_valid_until).to.be.a("string");

    expect((await admin("remove-dashboard-webhook", "--brand", "cli-brand")).code).to.equal(0);
    expect(await db("app.webhook_endpoints").where({ id: created.webhook_id })).to.have.length(0);
    const none = await admin("rotate-dashboard-webhook-secret", "--brand", "cli-brand");
    expect(none.code).to.equal(2);
    expect(none.stderr).to.contain("has no dashboard webhook");
  });
});
