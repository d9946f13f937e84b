// The operator CLI end to end against a real test database, each command's effect checked through the real API over
// HTTP. Commands run in this process through the CLI's own `main` (test/support/admin-cli.ts); the entry point itself
// is spawned as `node --import tsx scripts/admin.ts` where the process matters: help and a wrong invocation reaching
// the shell as exit codes 0 and 2, a created brand's key, a database that cannot be reached (exit 1).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort, waitFor } from "../../scripts/lib/processes";
import { runAdmin, spawnAdmin } from "../support/admin-cli";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

describe("operator CLI (npm run admin)", () => {
  let api: InProcessApi;
  let databaseUrl: string;

  before(async () => {
    databaseUrl = await createTestDatabase("admin_cli");
    // The in-process API migrates the database and answers the requests that show each command's effect.
    api = await startInProcessApi({ DATABASE_URL: databaseUrl, RPC_URL: `http://127.0.0.1:${await freePort()}` });
  });
  after(() => api?.close());

  /** Each command in this process (what the CLI does), except the checks of the entry point, which spawn it. */
  const admin = (args: string[], env: Record<string, string> = {}) => runAdmin(args, { DATABASE_URL: databaseUrl, ...env });

  async function adminJson(args: string[]) {
    const run = await admin([...args, "--json"]);
    expect(run.code, run.stderr).to.equal(0);
    return JSON.parse(run.stdout);
  }

  /**
   * A command that changes keys or brands, then a wait until the API has heard of it: the CLI's NOTIFY reaches the
   * API's key cache asynchronously, a moment after the CLI exits.
   */
  async function adminChanging<T>(command: () => Promise<T>): Promise<T> {
    const heard = api.keyCache.notifications;
    const result = await command();
    await waitFor("the API to hear of the change", async () => (api.keyCache.notifications > heard ? true : undefined), 10_000, 10);
    return result;
  }

  const brandCall = (key: string, slug: string, route = "brand") =>
    fetch(`${api.url}/api/v1/${route}`, { headers: { Authorization: `Bearer ${key}`, "X-Service-Brand": slug } });

  it("lists every command with --help (exit 0) and refuses a wrong invocation with exit 2", async () => {
    const spawned = (args: string[]) => spawnAdmin(args, { DATABASE_URL: databaseUrl });
    const help = await spawned(["--help"]);
    expect(help.code).to.equal(0);
    for (const name of ["create-brand", "list-brands", "issue-key", "rotate-key", "revoke-key", "list-keys", "suspend", "reactivate", "set-plan", "set-limits", "show-usage"]) {
      expect(help.stdout).to.include(name);
    }
    expect((await spawned([])).code).to.equal(2);
    const unknown = await admin(["frobnicate"]);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.include('Unknown command "frobnicate"');
    const missing = await admin(["create-brand", "--slug", "x"]);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.include("--name is required");
    const badFlag = await admin(["list-keys", "--brand", "x", "--colour", "red"]);
    expect(badFlag.code).to.equal(2);
    const badValue = await admin(["create-brand", "--slug", "Bad Slug", "--name", "n", "--uid-prefix", "BS"]);
    expect(badValue.code).to.equal(2);
    expect(badValue.stderr).to.include("slug");
  });

  it("creates a brand whose printed key works once, issues, lists, rotates and revokes keys", async () => {
    const created = await spawnAdmin(["create-brand", "--slug", "cli-brand", "--name", "CLI Brand", "--uid-prefix", "cli", "--plan", "growth"], { DATABASE_URL: databaseUrl });
    expect(created.code, created.stderr).to.equal(0);
    const firstKey = /API key \(shown once; store it now\): (pr_live_\S+)/.exec(created.stdout)?.[1];
    expect(firstKey).to.be.a("string");
    const brand = await brandCall(firstKey!, "cli-brand");
    expect(brand.status).to.equal(200);
    expect((await json(brand)).data).to.include({ slug: "cli-brand", uid_prefix: "CLI", plan: "growth" });

    const duplicate = await admin(["create-brand", "--slug", "cli-brand", "--name", "Again", "--uid-prefix", "CLJ"]);
    expect(duplicate.code).to.equal(1);
    expect(duplicate.stderr).to.include("exists already");

    const list = await admin(["list-brands"]);
    expect(list.code).to.equal(0);
    expect(list.stdout).to.match(/cli-brand\s+CLI Brand\s+CLI\s+active\s+growth/);

    const issued = await adminJson(["issue-key", "--brand", "cli-brand", "--label", "shop backend"]);
    expect((await brandCall(issued.api_key, "cli-brand")).status).to.equal(200);

    const keys = await admin(["list-keys", "--brand", "cli-brand"]);
    expect(keys.code).to.equal(0);
    expect(keys.stdout).to.include(issued.key_prefix).and.to.include("shop backend");
    expect(keys.stdout).to.not.include(issued.api_key).and.not.include(firstKey!);

    const rotated = await adminChanging(() => adminJson(["rotate-key", "--brand", "cli-brand", "--key", String(issued.key_id)]));
    expect(rotated.revoked).to.include({ id: issued.key_id, state: "revoked" });
    expect((await brandCall(issued.api_key, "cli-brand")).status).to.equal(401);
    expect((await brandCall(rotated.api_key, "cli-brand")).status).to.equal(200);

    const graced = await adminChanging(() => adminJson(["rotate-key", "--brand", "cli-brand", "--key", rotated.key_prefix, "--grace", "600"]));
    expect(graced.revoked.state).to.equal("grace");
    expect((await brandCall(rotated.api_key, "cli-brand")).status).to.equal(200);

    const revoked = await adminChanging(() => admin(["revoke-key", "--brand", "cli-brand", "--key", firstKey!.slice(0, 14)]));
    expect(revoked.code, revoked.stderr).to.equal(0);
    expect((await brandCall(firstKey!, "cli-brand")).status).to.equal(401);

    const unknownKey = await admin(["revoke-key", "--brand", "cli-brand", "--key", "99999"]);
    expect(unknownKey.code).to.equal(1);
    expect(unknownKey.stderr).to.include("not found");
    const unknownBrand = await admin(["list-keys", "--brand", "nobody"]);
    expect(unknownBrand.code).to.equal(1);
  });

  it("suspends and reactivates, changes plan and custom limits, and shows usage", async () => {
    const created = await adminJson(["create-brand", "--slug", "cli-limits", "--name", "Limits Co", "--uid-prefix", "LIM"]);
    const key: string = created.api_key;
    expect(created.brand).to.include({ plan: "starter" });

    expect((await adminChanging(() => admin(["suspend", "--brand", "cli-limits"]))).code).to.equal(0);
    const suspended = await brandCall(key, "cli-limits");
    expect(suspended.status).to.equal(403);
    expect((await json(suspended)).error.code).to.equal("BRAND_INACTIVE");
    expect((await adminChanging(() => admin(["reactivate", "--brand", "cli-limits"]))).code).to.equal(0);
    expect((await brandCall(key, "cli-limits")).status).to.equal(200);

    const plan = await adminChanging(() => adminJson(["set-plan", "--brand", "cli-limits", "--plan", "enterprise"]));
    expect(plan.limits).to.include({ api_calls_per_month: 10_000, requests_per_hour: 1_000 });
    expect((await admin(["set-plan", "--brand", "cli-limits", "--plan", "platinum"])).code).to.equal(2);

    // One call so far this month: a limit of 2 admits exactly one more.
    const limited = await adminChanging(() =>
      adminJson(["set-limits", "--brand", "cli-limits", "--api-calls-per-month", "2", "--scans-per-month", "unlimited", "--price-usd-per-month", "900"]),
    );
    expect(limited.limit_overrides).to.deep.equal({ api_calls_per_month: 2, scans_per_month: null, price_usd_per_month: 900 });
    const usageRes = await brandCall(key, "cli-limits", "usage");
    expect(usageRes.status).to.equal(200);
    expect((await json(usageRes)).data).to.include({ plan_api_limit: 2, calls_this_month: 2, estimated_cost_usd: 900 });
    const refused = await brandCall(key, "cli-limits");
    expect(refused.status).to.equal(429);
    expect((await json(refused)).error.code).to.equal("MONTHLY_LIMIT_REACHED");

    expect((await admin(["set-limits", "--brand", "cli-limits", "--api-calls-per-month", "-1"])).code).to.equal(2);
    expect((await admin(["set-limits", "--brand", "cli-limits", "--requests-per-hour", "unlimited"])).code).to.equal(2);
    expect((await admin(["set-limits", "--brand", "cli-limits"])).code).to.equal(2);
    const reset = await adminChanging(() => adminJson(["set-limits", "--brand", "cli-limits", "--api-calls-per-month", "plan"]));
    expect(reset.limit_overrides).to.deep.equal({ scans_per_month: null, price_usd_per_month: 900 });
    expect((await brandCall(key, "cli-limits")).status).to.equal(200);
    const cleared = await adminJson(["set-limits", "--brand", "cli-limits", "--clear"]);
    expect(cleared.limit_overrides).to.deep.equal({});

    // The API process writes its endpoint counts every second (docs/brand-api.md, "Plans and limits"); the call counter itself
    // is exact at once. Read until the endpoint counts add up to the calls, for at most five seconds.
    let usage = await adminJson(["show-usage", "--brand", "cli-limits"]);
    const counted = (u: typeof usage) => u.endpoint_breakdown.reduce((sum: number, row: { calls: number }) => sum + row.calls, 0);
    for (let attempt = 0; attempt < 10 && counted(usage) < usage.api_calls; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      usage = await adminJson(["show-usage", "--brand", "cli-limits"]);
    }
    expect(usage).to.include({ brand: "cli-limits", plan: "enterprise", api_calls: 3, certs: 0 });
    expect(usage.endpoint_breakdown).to.deep.equal([
      { endpoint: "GET /api/v1/brand", calls: 2 },
      { endpoint: "GET /api/v1/usage", calls: 1 },
    ]);
    const text = await admin(["show-usage", "--brand", "cli-limits", "--period", "2001-01"]);
    expect(text.code).to.equal(0);
    expect(text.stdout).to.include("No calls.");
    expect((await admin(["show-usage", "--brand", "cli-limits", "--period", "2001-13"])).code).to.equal(2);
  });

  it("invites a brand's first owner: prints the link, writes the email to MAIL_DIR, and the link signs them in", async () => {
    const mailDir = mkdtempSync(path.join(os.tmpdir(), "cli-mail-"));
    try {
      await adminJson(["create-brand", "--slug", "cli-team", "--name", "CLI Team", "--uid-prefix", "CLT"]);
      const run = await admin(["invite-brand-user", "--brand", "cli-team", "--email", "first.owner@cli.test", "--json"], { MAIL_DIR: mailDir });
      expect(run.code, run.stderr).to.equal(0);
      const invited = JSON.parse(run.stdout);
      expect(invited.role).to.equal("owner");
      expect(readFileSync(invited.mail_file, "utf8")).to.include("first.owner@cli.test");
      const token = /#token=([A-Za-z0-9_-]+)$/.exec(invited.link)![1];
      const accept = await fetch(`${api.url}/api/dashboard/invitations/accept`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token, password: "first owner password" }),
      });
      expect(accept.status).to.equal(200);
      expect((await json(accept)).data.user.role).to.equal("owner");
      expect((await admin(["invite-brand-user", "--brand", "cli-team", "--email", "x@cli.test", "--role", "boss"], { MAIL_DIR: mailDir })).code).to.equal(2);
      const listed = await adminJson(["list-brand-users", "--brand", "cli-team"]);
      expect(listed.map((m: { email: string; status: string }) => `${m.email}:${m.status}`)).to.deep.equal(["first.owner@cli.test:active"]);
      await adminJson(["create-brand-user", "--brand", "cli-team", "--email", "till@cli.test", "--role", "cashier", "--password", "cashier password"]);
      const signIn = await fetch(`${api.url}/api/dashboard/session`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "till@cli.test", password: "cashier password" }),
      });
      expect((await json(signIn)).data.user.role).to.equal("cashier");
    } finally {
      rmSync(mailDir, { recursive: true, force: true });
    }
  });

  it("exits 1 with a clear message when the database cannot be reached", async () => {
    const run = await spawnAdmin(["list-brands"], { DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${await freePort()}/nothing` });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include("cannot reach the database");
  });
});
