// A Bengali shopper's whole path in a real Chromium (issue 24, item 2): the scan page with ?lang=bn, paying cash at
// the till (a cashier confirms on a phone) and with bKash through the local gateway's page, then the order page and
// its receipt. Every page is read as a person meets it and must hold no English interface word: no string of the
// English catalogue that has a Bengali translation, and no Latin-script word but names of services, codes and the
// brand's own data. Amounts read the same on the scan page, the Cash QR and the receipt. Screenshots are kept; axe-core
// finds nothing serious on any of them.
import { expect } from "chai";
import { mkdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { createBrand } from "../../api/src/brands/service";
import { BN } from "../../api/src/i18n/catalogue.bn";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { startBkashSim, type RunningSim } from "../../scripts/lib/payment-sims";
import { freePort } from "../../scripts/lib/processes";
import { axeViolations, launchChromium, seriousViolations, watchedPage } from "../support/browser";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";
import { untranslatedWords, visibleTexts } from "../support/untranslated";

const SHOTS = "/tmp/h/shots";
const PHONE = { width: 360, height: 740 };
/** Bound on one screen's loading or one state change seen by polling (every 2 s), on a busy 2-core machine. */
const WAIT_MS = 15_000;

describe("a Bengali shopper's path from the scan page to the receipt", function () {
  let api: InProcessApi;
  let bkash: RunningSim;
  let browser: Browser;
  let cashier: DashboardClient;
  let uid: string;
  const brandName = "Till & Tag";
  const productName = `Everyday Crew ${randomBytes(2).toString("hex")}`;
  const consoleErrors: string[] = [];

  before(async function () {
    this.timeout(60_000);
    browser = await launchChromium(this, "the Bengali checkout");
    mkdirSync(SHOTS, { recursive: true });
    bkash = await startBkashSim();
    api = await startInProcessApi({
      DATABASE_URL: await createTestDatabase("bengali_checkout"),
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      BKASH_BASE_URL: bkash.baseUrl,
    });
    const { brand } = await createBrand(api.db, { slug: "till-tag-bn", name: brandName, uidPrefix: "TBN", plan: "growth" });
    const owner = await dashboardClient(api.url, api.db, brand.id, "owner");
    cashier = await dashboardClient(api.url, api.db, brand.id, "cashier");
    // As the demo's T-shirt: a category, fibres read from fabric_type, the category's care text, 790 taka.
    const made = await owner.call("/api/dashboard/products", {
      method: "POST",
      json: { sku: "TBN-TEE-1", name: productName, category: "t-shirt", fabric_type: "60% cotton 40% polyester", price: 790, currency: "BDT" },
    });
    expect(made.status, JSON.stringify(await made.clone().json())).to.equal(201);
    uid = (await json(made)).data.uid;
    for (const [path, body] of [
      ["/api/dashboard/gateway-keys/bkash", { credentials: bkash.credentials, enabled: true }],
      ["/api/dashboard/gateway-keys/cash_qr", { enabled: true }],
      ["/api/dashboard/sales", { enabled: true }],
    ] as const) {
      const res = await owner.call(path, { method: "PUT", json: body });
      expect(res.status, `PUT ${path}: ${await res.clone().text()}`).to.equal(200);
    }
  });

  after(async function () {
    this.timeout(30_000);
    await browser?.close();
    await api?.close();
    await bkash?.stop();
  });

  afterEach(() => {
    expect(consoleErrors, "console errors").to.deep.equal([]);
  });

  /** An English-speaking browser: Bengali comes only from ?lang=bn and the cookie it leaves. */
  const newPage = () => watchedPage(browser, { viewport: PHONE, locale: "en-GB" }, consoleErrors);

  const at = (path: string) => `${api.url}${path}`;

  /** Waits for the web fonts, keeps a screenshot, and fails on any English interface word the page shows (and on axe). */
  async function expectAllBengali(page: Page, shot: string, data: string[]) {
    await page.evaluate("document.fonts.ready");
    await page.screenshot({ path: `${SHOTS}/${shot}.png`, fullPage: true });
    expect(await page.getAttribute("html", "lang"), shot).to.equal("bn");
    expect(untranslatedWords(await visibleTexts(page), "bn", [brandName, productName, uid, ...data]), `English on ${shot}`).to.deep.equal([]);
    expect(seriousViolations(await axeViolations(page)), `axe on ${shot}`).to.deep.equal([]);
  }

  /** The scan page's price as the shopper reads it, without the screen reader's "Price: ". */
  async function scanPrice(page: Page): Promise<string> {
    return (await page.locator('[data-field="price"]').innerText()).replace(BN.pricePrefix.trim(), "").trim();
  }

  it("pays cash at the till: scan page, Cash QR, the cashier's confirmation and the order page, all in Bengali", async function () {
    this.timeout(90_000);
    const shopper = await newPage();
    const till = await newPage();
    try {
      await shopper.page.goto(at(`/scan/${uid}?lang=bn`));
      const buy = shopper.page.getByRole("region", { name: BN.buy });
      await buy.getByRole("button", { name: BN.methodNames.cash_qr }).waitFor({ timeout: WAIT_MS });
      const price = await scanPrice(shopper.page);
      await expectAllBengali(shopper.page, "bengali-path-scan", []);

      const answered = shopper.page.waitForResponse((res) => res.url() === at("/api/orders") && res.request().method() === "POST");
      await buy.getByRole("button", { name: BN.methodNames.cash_qr }).click();
      const order = (await (await answered).json()).data as { order_id: string; next: { confirm_url: string } };
      await buy.getByText(BN.showCashier).waitFor({ timeout: WAIT_MS });
      expect(await buy.locator('[data-field="cash"] [data-field="amount"]').innerText(), "the Cash QR's amount").to.equal(price);
      await expectAllBengali(shopper.page, "bengali-path-cash-qr", [order.order_id]);

      // The cashier works in the dashboard, in English.
      await till.page.goto(order.next.confirm_url);
      await till.page.getByLabel("Email").fill(cashier.email);
      await till.page.getByLabel("Password").fill(cashier.password);
      await till.page.getByRole("button", { name: "Sign in" }).click();
      await till.page.getByRole("button", { name: /^Confirm .* received$/ }).click({ timeout: WAIT_MS });
      await till.page.getByText("✓ Payment confirmed").waitFor({ timeout: WAIT_MS });

      await buy.getByRole("img", { name: BN.cashierQrAlt }).waitFor({ state: "hidden", timeout: WAIT_MS });
      await buy.locator(".paid-state").waitFor({ timeout: WAIT_MS });
      await expectAllBengali(shopper.page, "bengali-path-cash-received", [order.order_id]);

      // The order's page, without ?lang=: the cookie the scan page set carries the language.
      await buy.getByRole("link", { name: BN.yourOrderPage }).click();
      const receipt = shopper.page.getByRole("region", { name: BN.receipt });
      await receipt.waitFor({ timeout: WAIT_MS });
      await shopper.page.getByRole("heading", { level: 1, name: productName }).waitFor({ timeout: WAIT_MS });
      await expectAllBengali(shopper.page, "bengali-path-cash-order", [order.order_id]);
      expect(await receipt.locator('[data-field="r-amount"]').innerText(), "the receipt's amount").to.equal(price);
      expect(await shopper.page.locator('#order [data-field="amount"]').innerText(), "the order's amount").to.equal(price);
    } finally {
      await shopper.context.close();
      await till.context.close();
    }
  });

  it("pays with bKash through the gateway's page and comes back to a Bengali order page and receipt", async function () {
    this.timeout(60_000);
    const shopper = await newPage();
    try {
      await shopper.page.goto(at(`/scan/${uid}?lang=bn`));
      const price = await scanPrice(shopper.page);
      await shopper.page.getByRole("button", { name: "bKash" }).click();
      await shopper.page.waitForURL((url) => url.origin === new URL(bkash.baseUrl).origin, { timeout: WAIT_MS });
      await shopper.page.locator("#approve").click();
      await shopper.page.waitForURL((url) => url.origin === new URL(api.url).origin && url.pathname.startsWith("/orders/"), { timeout: WAIT_MS });
      const orderId = new URL(shopper.page.url()).pathname.split("/").pop()!;
      const receipt = shopper.page.getByRole("region", { name: BN.receipt });
      await receipt.waitFor({ timeout: WAIT_MS });
      // Verified: the receipt's "confirmed" line has a time, not the words for "being confirmed".
      await receipt.locator('[data-field="r-verified"]').filter({ hasText: /UTC/ }).waitFor({ timeout: WAIT_MS });
      await expectAllBengali(shopper.page, "bengali-path-bkash-order", [orderId]);
      expect(await receipt.locator('[data-field="r-amount"]').innerText(), "the receipt's amount").to.equal(price);
      expect(await receipt.locator('[data-field="r-method"]').innerText()).to.equal("bKash");
    } finally {
      await shopper.context.close();
    }
  });

  it("the check finds the English of the same order page in English (it can fail)", async function () {
    this.timeout(60_000);
    const shopper = await newPage();
    try {
      await shopper.page.goto(at(`/scan/${uid}?lang=en`));
      await shopper.page.getByRole("button", { name: "bKash" }).click();
      await shopper.page.waitForURL((url) => url.origin === new URL(bkash.baseUrl).origin, { timeout: WAIT_MS });
      await shopper.page.locator("#approve").click();
      await shopper.page.waitForURL((url) => url.origin === new URL(api.url).origin && url.pathname.startsWith("/orders/"), { timeout: WAIT_MS });
      await shopper.page.getByRole("region", { name: "Receipt" }).waitFor({ timeout: WAIT_MS });
      const orderId = new URL(shopper.page.url()).pathname.split("/").pop()!;
      const found = untranslatedWords(await visibleTexts(shopper.page), "bn", [brandName, productName, uid, orderId]);
      expect(found).to.include.members(['EN.receipt: "Receipt"', 'EN.paidWith: "Paid with"', 'EN.backToProduct: "Back to the product"']);
    } finally {
      await shopper.context.close();
    }
  });
});
