// Dashboard accounts over HTTP against a real Postgres and a real local SMTP server: sign-in and its cookie, CSRF,
// roles refused on the server, invitations and password resets by emailed link, sign-out everywhere, lockout.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { SMTPServer } from "smtp-server";
import { createBrand, setBrandStatus } from "../../api/src/brands/service";
import { createDb } from "../../api/src/db/knex";
import type { Mailer, MailMessage } from "../../api/src/mail/mailer";
import { createMemberWithPassword, requestPasswordReset } from "../../api/src/team/service";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { dashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

type ReceivedMail = { to: string[]; raw: string };

/** The text part of a raw message, undoing quoted-printable or base64 transfer encoding. */
function bodyText(raw: string): string {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(head ?? "")?.[1]?.toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    return body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return body;
}

const linkIn = (mail: ReceivedMail) => /https?:\/\/\S+#token=([A-Za-z0-9_-]+)/.exec(bodyText(mail.raw));

describe("dashboard accounts: sessions, CSRF, roles, invitations and resets", () => {
  let api: InProcessApi;
  let smtp: SMTPServer;
  let mailDir: string;
  const inbox: ReceivedMail[] = [];
  let brand: { id: number; slug: string };
  let counter = 0;

  before(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
          callback();
        });
      },
    });
    const smtpPort = await freePort();
    await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
    mailDir = mkdtempSync(path.join(os.tmpdir(), "dashboard-mail-"));
    api = await startInProcessApi({
      DATABASE_URL: await createTestDatabase("dashboard_session"),
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_DIR: mailDir,
    });
    const created = await createBrand(api.db, { slug: "session-brand", name: "Session Brand", uidPrefix: "SES" });
    brand = created.brand;
  });
  after(async () => {
    await api?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    if (mailDir) rmSync(mailDir, { recursive: true, force: true });
  });

  const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.url}${p}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  const rawPost = (p: string, body: unknown, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string; setCookie: string[] | undefined }>((resolve, reject) => {
      const data = JSON.stringify(body);
      const req = request(`${api.url}${p}`, { method: "POST", headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data), ...headers } }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("end", () => resolve({ status: res.statusCode!, body: text, setCookie: res.headers["set-cookie"] }));
      });
      req.on("error", reject);
      req.end(data);
    });
  const waitForMail = async (to: string) => {
    for (let i = 0; i < 100; i++) {
      const found = inbox.find((mail) => mail.to.includes(to));
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no mail reached ${to}`);
  };
  const email = (label: string) => `${label}-${++counter}@session.test`;

  it("signs in with an HttpOnly, SameSite cookie and answers who is signed in, with the role's permissions", async () => {
    const address = email("owner");
    await createMemberWithPassword(api.db, brand.id, { email: address, role: "owner", password: "correct horse battery" });
    const res = await post("/api/dashboard/session", { email: address.toUpperCase(), password: "correct horse battery" });
    expect(res.status).to.equal(200);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).to.match(/^pr_session=prd_/).and.match(/httponly/i).and.match(/samesite=lax/i).and.match(/path=\//i);
    const body = await json(res);
    expect(body.data.user.role).to.equal("owner");
    expect(body.data.brand.slug).to.equal("session-brand");
    expect(body.data.permissions).to.include.members(["team.manage", "keys.manage", "certificates.issue"]);
    const me = await fetch(`${api.url}/api/dashboard/session`, { headers: { Cookie: cookie.split(";")[0]! } });
    expect(me.status).to.equal(200);
    expect((await json(me)).data.csrf_token).to.equal(body.data.csrf_token);
  });

  it("answers a wrong password and an unknown email the same way, and refuses a request with no session", async () => {
    const address = email("owner");
    await createMemberWithPassword(api.db, brand.id, { email: address, role: "owner", password: "correct horse battery" });
    const wrong = await post("/api/dashboard/session", { email: address, password: "wrong password!" });
    const unknown = await post("/api/dashboard/session", { email: email("nobody"), password: "wrong password!" });
    expect([wrong.status, unknown.status]).to.deep.equal([401, 401]);
    expect((await json(wrong)).error.message).to.equal((await json(unknown)).error.message);
    const anonymous = await fetch(`${api.url}/api/dashboard/team`);
    expect(anonymous.status).to.equal(401);
    expect((await json(anonymous)).error.code).to.equal("UNAUTHORIZED");
  });

  it("refuses a state-changing request without the CSRF token, with a wrong one, or from another site", async () => {
    const owner = await dashboardClient(api.url, api.db, brand.id, "owner");
    const invite = { email: email("csrf"), role: "viewer" };
    const missing = await owner.call("/api/dashboard/team/invitations", { method: "POST", json: invite, headers: { "X-CSRF-Token": "" } });
    expect(missing.status).to.equal(403);
    expect((await json(missing)).error.code).to.equal("CSRF_FAILED");
    const wrong = await owner.call("/api/dashboard/team/invitations", { method: "POST", json: invite, headers: { "X-CSRF-Token": "x".repeat(32) } });
    expect((await json(wrong)).error.code).to.equal("CSRF_FAILED");
    // fetch() sets Origin itself, so a page of another site is played with a plain HTTP request.
    const foreign = await rawPost("/api/dashboard/team/invitations", invite, { Cookie: owner.cookie, "X-CSRF-Token": owner.csrf, Origin: "https://evil.example" });
    expect(foreign.status, foreign.body).to.equal(403);
    expect(JSON.parse(foreign.body).error.code).to.equal("CSRF_FAILED");
    const foreignLogin = await rawPost("/api/dashboard/session", { email: owner.email, password: owner.password }, { Origin: "https://evil.example" });
    expect(foreignLogin.status).to.equal(403);
    expect(foreignLogin.setCookie).to.equal(undefined);
    // Nothing was invited by the refused requests.
    const team = await json(await owner.call("/api/dashboard/team"));
    expect(team.data.map((m: { email: string }) => m.email)).not.to.include(invite.email);
  });

  it("enforces roles on the server: a viewer and a cashier cannot manage the team, an admin cannot make an owner", async () => {
    for (const role of ["viewer", "cashier", "editor"] as const) {
      const client = await dashboardClient(api.url, api.db, brand.id, role);
      const res = await client.call("/api/dashboard/team/invitations", { method: "POST", json: { email: email("x"), role: "viewer" } });
      expect(res.status, role).to.equal(403);
      expect((await json(res)).error.code).to.equal("FORBIDDEN");
      expect((await client.call("/api/dashboard/team")).status, role).to.equal(403);
    }
    const admin = await dashboardClient(api.url, api.db, brand.id, "admin");
    const owner = await admin.call("/api/dashboard/team/invitations", { method: "POST", json: { email: email("o"), role: "owner" } });
    expect(owner.status).to.equal(403);
  });

  it("invites by email through SMTP (also written to MAIL_DIR); the link signs the new member in once", async () => {
    const owner = await dashboardClient(api.url, api.db, brand.id, "owner");
    const address = email("invitee");
    const res = await owner.call("/api/dashboard/team/invitations", { method: "POST", json: { email: address, role: "editor" } });
    expect(res.status).to.equal(201);
    expect((await json(res)).data.member).to.include({ email: address, role: "editor", status: "invited" });
    const mail = await waitForMail(address);
    expect(mail.raw).to.match(/Subject: You are invited to Session Brand/);
    const token = linkIn(mail)?.[1];
    expect(token, bodyText(mail.raw)).to.be.a("string");
    expect(readdirSync(mailDir).some((file) => file.endsWith(".eml") && readFileSync(path.join(mailDir, file), "utf8").includes(address))).to.equal(true);
    // The invitee cannot sign in before accepting.
    expect((await post("/api/dashboard/session", { email: address, password: "anything at all" })).status).to.equal(401);

    expect((await json(await post("/api/dashboard/invitations/inspect", { token }))).data).to.deep.equal({ email: address, brand: "Session Brand", role: "editor" });
    const short = await post("/api/dashboard/invitations/accept", { token, password: "short" });
    expect(short.status).to.equal(422);
    expect((await json(short)).error.details[0].field).to.equal("password");
    const accepted = await post("/api/dashboard/invitations/accept", { token, password: "a long new password" });
    expect(accepted.status).to.equal(200);
    expect((await json(accepted)).data.user).to.include({ email: address, role: "editor" });
    expect(accepted.headers.get("set-cookie")).to.match(/^pr_session=/);
    expect((await post("/api/dashboard/invitations/accept", { token, password: "another long one" })).status).to.equal(404);

    const team = await json(await owner.call("/api/dashboard/team"));
    expect(team.data.find((m: { email: string }) => m.email === address)).to.include({ status: "active", role: "editor" });
    const audit = await json(await owner.call("/api/dashboard/audit?action=team."));
    expect(audit.data.entries.some((e: { action: string; target: string }) => e.action === "team.invited" && e.target === address)).to.equal(true);
  });

  it("resets a password by emailed link, ends every session, and says the same for an unknown address", async () => {
    const member = await dashboardClient(api.url, api.db, brand.id, "viewer");
    const unknown = await post("/api/dashboard/password-resets", { email: email("ghost") });
    expect(unknown.status).to.equal(202);
    const known = await post("/api/dashboard/password-resets", { email: member.email });
    expect(known.status).to.equal(202);
    const token = linkIn(await waitForMail(member.email))?.[1];
    expect(inbox.some((mail) => mail.to.some((to) => to.startsWith("ghost-")))).to.equal(false);

    expect((await post("/api/dashboard/password-resets/complete", { token, password: "my brand new password" })).status).to.equal(204);
    expect((await member.call("/api/dashboard/session")).status).to.equal(401);
    expect((await post("/api/dashboard/session", { email: member.email, password: member.password })).status).to.equal(401);
    expect((await post("/api/dashboard/session", { email: member.email, password: "my brand new password" })).status).to.equal(200);
    expect((await post("/api/dashboard/password-resets/complete", { token, password: "yet another password" })).status).to.equal(404);
  });

  it("signs out of one browser, or everywhere", async () => {
    const first = await dashboardClient(api.url, api.db, brand.id, "viewer");
    const secondLogin = await post("/api/dashboard/session", { email: first.email, password: first.password });
    const second = secondLogin.headers.get("set-cookie")!.split(";")[0]!;
    const secondCsrf = (await json(secondLogin)).data.csrf_token;
    const out = await fetch(`${api.url}/api/dashboard/session`, { method: "DELETE", headers: { Cookie: second, "X-CSRF-Token": secondCsrf } });
    expect(out.status).to.equal(204);
    expect(out.headers.get("set-cookie")).to.match(/pr_session=;/);
    expect((await fetch(`${api.url}/api/dashboard/session`, { headers: { Cookie: second } })).status).to.equal(401);
    expect((await first.call("/api/dashboard/session")).status).to.equal(200);

    const third = await post("/api/dashboard/session", { email: first.email, password: first.password });
    const everywhere = await first.call("/api/dashboard/session", { method: "DELETE", json: { everywhere: true } });
    expect(everywhere.status).to.equal(204);
    expect((await first.call("/api/dashboard/session")).status).to.equal(401);
    expect((await fetch(`${api.url}/api/dashboard/session`, { headers: { Cookie: third.headers.get("set-cookie")!.split(";")[0]! } })).status).to.equal(401);
  });

  it("keeps one owner: the last owner can be neither demoted nor removed; a member of another brand is not found", async () => {
    const other = await createBrand(api.db, { slug: `lone-${++counter}`, name: "Lone Brand", uidPrefix: `LN${counter}` });
    const owner = await dashboardClient(api.url, api.db, other.brand.id, "owner");
    const team = await json(await owner.call("/api/dashboard/team"));
    const self = team.data.find((m: { email: string }) => m.email === owner.email);
    const demote = await owner.call(`/api/dashboard/team/${self.id}`, { method: "PATCH", json: { role: "admin" } });
    expect(demote.status).to.equal(409);
    expect((await owner.call(`/api/dashboard/team/${self.id}`, { method: "DELETE" })).status).to.equal(409);
    const outsider = await dashboardClient(api.url, api.db, brand.id, "viewer");
    const outsiderId = (await json(await outsider.call("/api/dashboard/session"))).data.user.id;
    expect((await owner.call(`/api/dashboard/team/${outsiderId}`, { method: "DELETE" })).status).to.equal(404);
    expect((await outsider.call("/api/dashboard/session")).status).to.equal(200);
  });

  it("lets a suspended brand's users sign out everywhere and change their password, and nothing else", async () => {
    const suspended = await createBrand(api.db, { slug: `suspended-${++counter}`, name: "Suspended Brand", uidPrefix: `SU${counter}` });
    const owner = await dashboardClient(api.url, api.db, suspended.brand.id, "owner");
    const otherLogin = await post("/api/dashboard/session", { email: owner.email, password: owner.password });
    const other = otherLogin.headers.get("set-cookie")!.split(";")[0]!;
    const third = (await post("/api/dashboard/session", { email: owner.email, password: owner.password })).headers.get("set-cookie")!.split(";")[0]!;
    await setBrandStatus(api.db, suspended.brand.slug, "suspended");

    // Its sessions still read, and the brand's data stays closed to writes.
    expect((await owner.call("/api/dashboard/session")).status).to.equal(200);
    const invite = await owner.call("/api/dashboard/team/invitations", { method: "POST", json: { email: email("while-suspended"), role: "viewer" } });
    expect(invite.status).to.equal(403);
    expect((await json(invite)).error.code).to.equal("BRAND_INACTIVE");

    // A password that may have leaked can be changed: the other sessions end, this one stays.
    const changed = await owner.call("/api/dashboard/password", { method: "POST", json: { current_password: owner.password, password: "a new password after suspension" } });
    expect(changed.status, await changed.clone().text()).to.equal(204);
    expect((await fetch(`${api.url}/api/dashboard/session`, { headers: { Cookie: other } })).status).to.equal(401);
    expect((await owner.call("/api/dashboard/session")).status).to.equal(200);

    // And every session can be ended.
    const fourth = (await post("/api/dashboard/session", { email: owner.email, password: "a new password after suspension" })).headers.get("set-cookie")!.split(";")[0]!;
    const out = await owner.call("/api/dashboard/session", { method: "DELETE", json: { everywhere: true } });
    expect(out.status, await out.clone().text()).to.equal(204);
    for (const cookie of [owner.cookie, third, fourth]) {
      expect((await fetch(`${api.url}/api/dashboard/session`, { headers: { Cookie: cookie } })).status).to.equal(401);
    }
  });

  it("locks an account from one address after 10 failures (429 with Retry-After), as operator logins are", async function () {
    this.timeout(120_000);
    const address = email("locked");
    await createMemberWithPassword(api.db, brand.id, { email: address, role: "viewer", password: "the right password" });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post("/api/dashboard/session", { email: address, password: `wrong ${i} password` })).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).to.equal(true);
    expect(statuses[10]).to.equal(429);
    const locked = await post("/api/dashboard/session", { email: address, password: "the right password" });
    expect(locked.status).to.equal(429);
    expect(Number(locked.headers.get("retry-after"))).to.be.greaterThan(0);
  });
});

describe("password resets: throttled per account and address, the same work either way, the mail after the answer", () => {
  let api: InProcessApi;
  let smtp: SMTPServer;
  let mailDir: string;
  let databaseUrl: string;
  const inbox: ReceivedMail[] = [];
  /** While set, the SMTP server holds each message without acknowledging it, until `release` is called. */
  let gate: Promise<void> | undefined;
  let release: () => void = () => undefined;
  let held = 0;
  let brand: { id: number; slug: string };
  let counter = 0;

  before(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          held += 1;
          void (gate ?? Promise.resolve()).then(() => {
            inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
            callback();
          });
        });
      },
    });
    const smtpPort = await freePort();
    await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
    mailDir = mkdtempSync(path.join(os.tmpdir(), "dashboard-reset-mail-"));
    databaseUrl = await createTestDatabase("dashboard_resets");
    // One proxy hop trusted, so each request can come from an address of its own (X-Forwarded-For).
    api = await startInProcessApi({
      DATABASE_URL: databaseUrl,
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_DIR: mailDir,
      TRUSTED_PROXY_HOPS: "1",
    });
    brand = (await createBrand(api.db, { slug: "reset-brand", name: "Reset Brand", uidPrefix: "RST" })).brand;
  });
  // A test that failed with the gate shut must not hold the next tests' mail.
  afterEach(() => {
    gate = undefined;
    release();
  });
  after(async () => {
    await api?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    if (mailDir) rmSync(mailDir, { recursive: true, force: true });
  });

  const member = async () => {
    const address = `reset-${++counter}@reset.test`;
    await createMemberWithPassword(api.db, brand.id, { email: address, role: "viewer", password: "the old password" });
    return address;
  };
  const askReset = (address: string, from: string) =>
    fetch(`${api.url}/api/dashboard/password-resets`, { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": from }, body: JSON.stringify({ email: address }) });
  const complete = (token: string, password: string) =>
    fetch(`${api.url}/api/dashboard/password-resets/complete`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token, password }) });
  const mailsTo = (address: string) => inbox.filter((mail) => mail.to.includes(address));
  const untilMails = async (address: string, count: number) => {
    for (let i = 0; i < 200 && mailsTo(address).length < count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mailsTo(address), `mails to ${address}`).to.have.length.of.at.least(count);
  };

  it("answers before the mail is sent: the 202 comes while the mail server still holds the message", async () => {
    const address = await member();
    gate = new Promise<void>((resolve) => (release = resolve));
    const heldBefore = held;
    try {
      // Before the fix the answer waited for the mail server's acknowledgement, which the gate withholds: no answer.
      const res = await askReset(address, "198.51.100.1");
      expect(res.status).to.equal(202);
      expect(mailsTo(address)).to.have.length(0);
      for (let i = 0; i < 200 && held === heldBefore; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(held, "the mail reached the server after the answer").to.equal(heldBefore + 1);
    } finally {
      gate = undefined;
      release();
    }
    await untilMails(address, 1);
    const token = linkIn(mailsTo(address)[0]!)?.[1];
    expect((await complete(token!, "a password after the reset")).status).to.equal(204);
  });

  it("does the same statements for an unknown address as for an account, and sends nothing before it returns", async () => {
    const address = await member();
    const db = createDb(databaseUrl, 1);
    const sent: MailMessage[] = [];
    const mailer: Mailer = { send: async (message) => (sent.push(message), { messageId: "test" }) };
    const statements: string[] = [];
    db.on("query", (query: { sql: string }) => statements.push(query.sql));
    try {
      const reset = async (email: string) => {
        statements.length = 0;
        const result = await requestPasswordReset({ db, config: api.config, mailer }, email, "192.0.2.7");
        return { result, statements: [...statements] };
      };
      const known = await reset(address);
      expect(sent, "no mail sent before the answer").to.have.length(0);
      const unknown = await reset(`nobody-${counter}@reset.test`);
      expect(unknown.statements).to.deep.equal(known.statements);
      expect(known.statements.some((sql) => sql.includes("brand_user_tokens"))).to.equal(true);

      await unknown.result.send();
      expect(sent).to.have.length(0);
      await known.result.send();
      expect(sent.map((m) => m.to)).to.deep.equal([address]);
    } finally {
      await db.destroy();
    }
  });

  it("lets nobody lock an account's owner out or flood them: at most 3 links an hour, whoever asks; the newest works", async function () {
    this.timeout(120_000);
    const victim = await member();
    // 11 requests from one address: answered alike (the 11th refused for that address and account only), 3 links mailed.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await askReset(victim, "203.0.113.9")).status);
    expect(statuses.slice(0, 10)).to.deep.equal(Array(10).fill(202));
    expect(statuses[10]).to.equal(429);
    // From the owner's own address the request is still answered (before, it was 429 for 15 minutes).
    expect((await askReset(victim, "203.0.113.77")).status).to.equal(202);

    // Every answer is in; a sentinel's mail shows the mailer has caught up.
    const sentinel = await member();
    expect((await askReset(sentinel, "203.0.113.78")).status).to.equal(202);
    await untilMails(sentinel, 1);
    await untilMails(victim, 3);
    const links = mailsTo(victim).map((mail) => linkIn(mail)?.[1]);
    expect(links, "links mailed to the account").to.have.length(3);
    const outcomes: number[] = [];
    for (const token of links) outcomes.push((await complete(token!, "the owner's new password")).status);
    expect(outcomes.filter((status) => status === 204), "the newest link works").to.have.length(1);
  });
});
