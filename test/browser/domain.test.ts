// The dashboard's Domain screen in a real Chromium: a brand with a custom domain waiting for DNS (its records checked
// once against a dns2 server: one step passed, one not yet) seen at desktop and phone width, with axe-core finding no
// serious or critical violation. Screenshots go to /tmp/h/shots for a person to look at.
import { mkdirSync } from "node:fs";
import { expect } from "chai";
import type { Browser, Page } from "playwright-core";
import { createBrand } from "../../api/src/brands/service";
import { createMemberWithPassword } from "../../api/src/team/service";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { axeViolations, launchChromium, seriousViolations } from "../support/browser";
import { dashboardClient } from "../support/dashboard";
import { startDnsServer, type TestDnsServer } from "../support/dns-server";
import { createTestDatabase } from "../support/hooks";

const SHOTS = "/tmp/h/shots";
const TARGET = "edge.passports.test";
const HOSTNAME = "shop.domain-screen.test";

describe("dashboard Domain screen in the browser", function () {
  let browser: Browser;
  let api: InProcessApi;
  let dns: TestDnsServer;
  const user = { email: "owner@domain-screen.test", password: "domain-screen-password" };

  before(async function () {
    this.timeout(120_000);
    browser = await launchChromium(this, "the Domain screen");
    mkdirSync(SHOTS, { recursive: true });
    dns = await startDnsServer({ [HOSTNAME]: [{ type: "CNAME", target: TARGET }] });
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("domain_screen"), RPC_URL: `http://127.0.0.1:${await freePort()}`, DNS_RESOLVERS: dns.address, DNS_TIMEOUT_MS: "500", DOMAIN_CNAME_TARGET: TARGET });
    const brand = await createBrand(api.db, { slug: "domain-screen", name: "Domain Screen", uidPrefix: "DSCR", plan: "growth" });
    await createMemberWithPassword(api.db, brand.brand.id, { email: user.email, role: "owner", password: user.password });
    // The domain added and checked once: the CNAME is right, the TXT record not made yet.
    const admin = await dashboardClient(api.url, api.db, brand.brand.id, "admin");
    expect((await admin.call("/api/dashboard/domain/custom", { method: "POST", json: { hostname: HOSTNAME } })).status).to.equal(201);
    expect((await admin.call("/api/dashboard/domain/custom/check", { method: "POST" })).status).to.equal(200);
  });
  after(async function () {
    this.timeout(30_000);
    await browser?.close();
    await api?.close();
    await dns?.close();
  });

  async function open(width: number, height: number): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await page.goto(`${api.url}/dashboard/sign-in?next=${encodeURIComponent("/domain")}`);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Domain" }).waitFor({ timeout: 15_000 });
    await page.getByRole("heading", { level: 3, name: "Verification" }).waitFor({ timeout: 15_000 });
    return page;
  }

  it("shows the subdomain, the records to create and each step in words, at desktop and phone width, without serious axe violations", async function () {
    this.timeout(90_000);
    for (const [name, width, height] of [["desktop", 1280, 900], ["phone", 360, 1400]] as const) {
      const page = await open(width, height);
      expect(await page.getByRole("link", { name: "domain-screen.localhost" }).count()).to.equal(1);
      const text = await page.locator("main").innerText();
      expect(text).to.contain(HOSTNAME).and.to.contain("Waiting for DNS");
      expect(text).to.contain(`_passport-verify.${HOSTNAME}`).and.to.contain(TARGET);
      // Each step's state is a word, not only a colour.
      expect(text).to.contain("Passed").and.to.contain("Not yet");
      expect(text).to.contain(`${HOSTNAME} is a CNAME of ${TARGET}.`);
      expect(await page.getByRole("button", { name: "Copy TXT value" }).count()).to.equal(1);
      expect(await page.getByRole("button", { name: "Check now" }).count()).to.equal(1);
      // Nothing wider than the screen at 360 px.
      expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).to.equal(true);
      await page.screenshot({ path: `${SHOTS}/domain-${name}.png`, fullPage: true });
      const serious = seriousViolations(await axeViolations(page));
      expect(serious, serious.join("\n")).to.deep.equal([]);
      await page.context().close();
    }
  });
});
