// Paying on the scan page in a real Chromium (issue 13): a shopper pays cash with the Cash QR and a cashier confirms
// it on a phone in another browser from the QR's URL, signing in on the way, until the shopper's page says the payment
// is received; a bKash payment goes through the local bKash server's own Approve button and lands on the order page,
// verified; refusals read as words; the owner refunds from the order's page; axe-core finds nothing serious on the
// orders, order, gateway keys and cashier screens. No chain: the scan page of an unissued product sells the same.
import { expect } from "chai";
import { mkdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { createBrand } from "../../api/src/brands/service";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { startBkashSim, startNagadSim, type RunningSim } from "../../scripts/lib/payment-sims";
import { freePort } from "../../scripts/lib/processes";
import { axeViolations, launchChromium, seriousViolations, watchedPage } from "../support/browser";
import { OpenApiContract } from "../support/contract";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const SHOTS = "/tmp/h/shots";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };
/** Bound on one screen's loading or one state change seen by polling (every 2 s), on a busy 2-core machine. */
const WAIT_MS = 15_000;
const PRICE = 1990;

describe("payments in the browser", function () {
  let api: InProcessApi;
  let bkash: RunningSim;
  let nagad: RunningSim;
  let browser: Browser;
  let owner: DashboardClient;
  let cashier: DashboardClient;
  let uid: string;
  const productName = `Checkout Tee ${randomBytes(2).toString("hex")}`;
  /** Every page's console errors and uncaught exceptions: a shopper or a cashier must never meet one. */
  const consoleErrors: string[] = [];

  before(async function () {
    this.timeout(60_000);
    browser = await launchChromium(this, "paying on the scan page");
    mkdirSync(SHOTS, { recursive: true });
    [bkash, nagad] = await Promise.all([startBkashSim(), startNagadSim()]);
    api = await startInProcessApi({
      DATABASE_URL: await createTestDatabase("payments_browser"),
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      BKASH_BASE_URL: bkash.baseUrl,
      NAGAD_BASE_URL: nagad.baseUrl,
    });
    const { brand } = await createBrand(api.db, { slug: "till-brand", name: "Till & Tag", uidPrefix: "TIL", plan: "growth" });
    owner = await dashboardClient(api.url, api.db, brand.id, "owner");
    cashier = await dashboardClient(api.url, api.db, brand.id, "cashier");
    const made = await owner.call("/api/dashboard/products", { method: "POST", json: { sku: "TIL-TEE-1", name: productName, category: "t-shirt", price: PRICE, currency: "BDT" } });
    expect(made.status, JSON.stringify(await made.clone().json())).to.equal(201);
    uid = (await json(made)).data.uid;
    await ownerCall("PUT", "/api/dashboard/gateway-keys/bkash", { credentials: bkash.credentials, enabled: true });
    await ownerCall("PUT", "/api/dashboard/gateway-keys/cash_qr", { enabled: true });
    await ownerCall("PUT", "/api/dashboard/sales", { enabled: true });
    // A brand colour, so the screenshots show the Buy section in it.
    await ownerCall("PUT", "/api/dashboard/branding", { primary_color: "#0A7C5A" });
  });

  after(async function () {
    this.timeout(30_000);
    await browser?.close();
    await api?.close();
    await bkash?.stop();
    await nagad?.stop();
  });

  afterEach(() => {
    expect(consoleErrors, "console errors").to.deep.equal([]);
  });

  async function ownerCall(method: string, path: string, body: unknown) {
    const res = await owner.call(path, { method, json: body });
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).to.equal(200);
    return (await json(res)).data;
  }

  const newPage = (viewport = DESKTOP) => watchedPage(browser, { viewport }, consoleErrors);

  const at = (path: string) => `${api.url}${path}`;

  async function signIn(page: Page, user: DashboardClient, landing: string | RegExp) {
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: landing }).waitFor({ timeout: WAIT_MS });
  }

  /** Waits until no "Loading …" line is left on a dashboard screen. */
  async function loaded(page: Page) {
    await page.getByRole("status").filter({ hasText: /^Loading / }).first().waitFor({ state: "detached", timeout: WAIT_MS });
  }

  async function expectNoSeriousAxe(page: Page, screen: string) {
    expect(seriousViolations(await axeViolations(page)), `axe on ${screen}`).to.deep.equal([]);
  }

  it("takes cash: the Cash QR, a cashier confirming on a phone after signing in, then Payment received", async function () {
    this.timeout(60_000);
    const shopper = await newPage(PHONE);
    const till = await newPage(PHONE);
    try {
      await shopper.page.goto(at(`/scan/${uid}`));
      const buy = shopper.page.getByRole("region", { name: "Buy" });
      await buy.waitFor({ timeout: WAIT_MS });
      expect(await buy.textContent()).to.include("BDT").and.include("1,990.00");
      for (const label of ["bKash", "Cash at the till"]) await buy.getByRole("button", { name: label }).waitFor({ timeout: 1000 });
      // Not configured, so not offered.
      expect(await buy.getByRole("button", { name: "Nagad" }).count()).to.equal(0);
      await shopper.page.screenshot({ path: `${SHOTS}/payments-scan-buy.png`, fullPage: true });
      await expectNoSeriousAxe(shopper.page, "the scan page's Buy section");

      const answered = shopper.page.waitForResponse((res) => res.url() === at("/api/orders") && res.request().method() === "POST");
      await buy.getByRole("button", { name: "Cash at the till" }).click();
      const order = (await (await answered).json()).data as { order_id: string; next: { type: string; confirm_url: string } };
      expect(order.next.type).to.equal("cash_qr");
      await buy.getByText("Show this to the cashier.").waitFor({ timeout: WAIT_MS });
      await buy.getByRole("img", { name: "QR code for the cashier to scan" }).waitFor({ timeout: 1000 });
      expect(await buy.textContent()).to.include("1,990.00");
      await shopper.page.screenshot({ path: `${SHOTS}/payments-cash-qr.png`, fullPage: true });

      // The cashier's phone opens the QR's URL signed out: sign-in drops the fragment, the screen still has the token.
      expect(new URL(order.next.confirm_url).hash).to.match(/^#t=/);
      await till.page.goto(order.next.confirm_url);
      await till.page.getByRole("heading", { level: 1, name: "Sign in to your brand dashboard" }).waitFor({ timeout: WAIT_MS });
      await signIn(till.page, cashier, "Confirm a cash payment");
      expect(new URL(till.page.url()).pathname).to.equal(`/dashboard/cashier/${order.order_id}`);
      const confirm = till.page.getByRole("button", { name: /^Confirm .*1,990\.00 received$/ });
      await confirm.waitFor({ timeout: WAIT_MS });
      expect(await till.page.getByText(productName).count()).to.be.greaterThan(0);
      await till.page.screenshot({ path: `${SHOTS}/payments-cashier-360.png`, fullPage: true });
      await expectNoSeriousAxe(till.page, "the cashier screen");
      // Nothing wider than the phone.
      expect(await till.page.evaluate("document.documentElement.scrollWidth")).to.be.at.most(PHONE.width);
      await confirm.click();
      await till.page.getByText("✓ Payment confirmed").waitFor({ timeout: WAIT_MS });
      await till.page.screenshot({ path: `${SHOTS}/payments-cashier-confirmed-360.png`, fullPage: true });

      await buy.getByText("Payment received").waitFor({ timeout: WAIT_MS });
      expect(await buy.getByRole("img", { name: "QR code for the cashier to scan" }).isVisible()).to.equal(false);
      await shopper.page.screenshot({ path: `${SHOTS}/payments-cash-received.png`, fullPage: true });

      // Scanned again, the same QR code says it is already confirmed.
      const again = await till.context.newPage();
      await again.goto(order.next.confirm_url);
      await again.getByText("This payment is already confirmed.", { exact: false }).waitFor({ timeout: WAIT_MS });
      expect(await again.getByRole("button", { name: /^Confirm / }).count()).to.equal(0);

      // The shopper's order page reads the secret the scan page kept for this tab.
      await buy.getByRole("link", { name: "Your order's page" }).click();
      await shopper.page.getByRole("heading", { level: 1, name: productName }).waitFor({ timeout: WAIT_MS });
      const receipt = shopper.page.getByRole("region", { name: "Receipt" });
      await receipt.waitFor({ timeout: WAIT_MS });
      expect(await receipt.textContent()).to.include(order.order_id).and.include("Cash at the till").and.include("1,990.00");
    } finally {
      await shopper.context.close();
      await till.context.close();
    }
  });

  it("pays with bKash through the gateway's Approve button and lands on the order page, verified", async function () {
    this.timeout(60_000);
    const shopper = await newPage(PHONE);
    try {
      await shopper.page.goto(at(`/scan/${uid}`));
      await shopper.page.getByRole("button", { name: "bKash" }).click();
      await shopper.page.waitForURL((url) => url.origin === new URL(bkash.baseUrl).origin, { timeout: WAIT_MS });
      await shopper.page.locator("#approve").click();
      await shopper.page.waitForURL((url) => url.origin === new URL(api.url).origin && url.pathname.startsWith("/orders/"), { timeout: WAIT_MS });
      await shopper.page.getByText("Payment received. Thank you.").waitFor({ timeout: WAIT_MS });
      // The secret came in the fragment and left the address bar at once; the receipt names the gateway.
      expect(new URL(shopper.page.url()).hash).to.equal("");
      const receipt = shopper.page.getByRole("region", { name: "Receipt" });
      expect(await receipt.textContent()).to.include("bKash").and.include("1,990.00");
      await shopper.page.screenshot({ path: `${SHOTS}/payments-order-page.png`, fullPage: true });
      await expectNoSeriousAxe(shopper.page, "the order page");

      // A reload keeps it (sessionStorage); another browser without the key is told so plainly.
      const orderPath = new URL(shopper.page.url()).pathname;
      await shopper.page.reload();
      await shopper.page.getByText("Payment received. Thank you.").waitFor({ timeout: WAIT_MS });
      const stranger = await newPage(PHONE);
      try {
        await stranger.page.goto(at(orderPath));
        await stranger.page.getByRole("alert").filter({ hasText: "This browser has no key for this order" }).waitFor({ timeout: WAIT_MS });
        await stranger.page.screenshot({ path: `${SHOTS}/payments-order-page-no-key.png`, fullPage: true });
      } finally {
        await stranger.context.close();
      }
    } finally {
      await shopper.context.close();
    }
  });

  it("says in words why a method cannot be used right now", async function () {
    this.timeout(30_000);
    const shopper = await newPage(PHONE);
    try {
      await shopper.page.goto(at(`/scan/${uid}`));
      await shopper.page.getByRole("button", { name: "bKash" }).waitFor({ timeout: WAIT_MS });
      // Switched off after the page was shown.
      await ownerCall("PUT", "/api/dashboard/gateway-keys/bkash", { enabled: false });
      await shopper.page.getByRole("button", { name: "bKash" }).click();
      await shopper.page.getByRole("alert").filter({ hasText: "bKash is not available for this product right now. Choose another way to pay." }).waitFor({ timeout: WAIT_MS });
      await ownerCall("PUT", "/api/dashboard/gateway-keys/bkash", { enabled: true });
      // Sales off: no Buy section at all.
      await ownerCall("PUT", "/api/dashboard/sales", { enabled: false });
      await shopper.page.reload();
      await shopper.page.getByRole("heading", { level: 1, name: productName }).waitFor({ timeout: WAIT_MS });
      expect(await shopper.page.getByRole("region", { name: "Buy" }).count()).to.equal(0);
    } finally {
      await ownerCall("PUT", "/api/dashboard/sales", { enabled: true });
      await shopper.context.close();
    }
  });

  it("tells a cashier of another brand, and one whose order ran out of time, that the order cannot be confirmed", async function () {
    this.timeout(30_000);
    const placed = await fetch(at("/api/orders"), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ uid, method: "cash_qr" }) });
    expect(placed.status).to.equal(201);
    const order = (await json(placed)).data as { order_id: string; next: { confirm_url: string } };
    const { brand: other } = await createBrand(api.db, { slug: "other-till", name: "Other Till", uidPrefix: "OTL" });
    const stranger = await dashboardClient(api.url, api.db, other.id, "cashier");
    const phone = await newPage(PHONE);
    try {
      await phone.page.goto(order.next.confirm_url);
      await signIn(phone.page, stranger, "Confirm a cash payment");
      await phone.page.getByRole("alert").filter({ hasText: "This order is another brand's" }).waitFor({ timeout: WAIT_MS });
      expect(await phone.page.getByRole("button", { name: /^Confirm / }).count()).to.equal(0);
    } finally {
      await phone.context.close();
    }
    // Half an hour later, as far as the order knows: the shop's own cashier is told it expired.
    await api.db("app.orders").where({ id: order.order_id }).update({ expires_at: new Date(Date.now() - 1000) });
    const till = await newPage(PHONE);
    try {
      await till.page.goto(order.next.confirm_url);
      await signIn(till.page, cashier, "Confirm a cash payment");
      await till.page.getByRole("alert").filter({ hasText: "This order expired before it was paid." }).waitFor({ timeout: WAIT_MS });
      expect(await till.page.getByRole("button", { name: /^Confirm / }).count()).to.equal(0);
    } finally {
      await till.context.close();
    }
  });

  it("serves the order page alike for every well-formed id, and its script, under a CSP that runs only our script", async function () {
    this.timeout(15_000);
    const contract = await OpenApiContract.load(api.url);
    const [{ order_id: real }] = (await json(await owner.call("/api/dashboard/orders?per_page=1"))).data.orders;
    const invented = "ord_0000000000000000000000";
    const pages: string[] = [];
    for (const id of [real, invented]) {
      const res = await fetch(at(`/orders/${id}`));
      expect(await contract.check("GET", `/orders/${id}`, res.clone())).to.deep.equal([]);
      expect(res.status).to.equal(200);
      expect(res.headers.get("cache-control")).to.equal("no-store");
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).to.include("script-src 'self'").and.include("connect-src 'self'").and.not.include("unsafe-inline");
      const body = await res.text();
      expect(body).to.include('<script src="/assets/orders.js" defer></script>');
      expect(body.match(/<script/g)).to.have.length(1);
      pages.push(body.replaceAll(id, "ID"));
    }
    // Nothing on the page tells whether the order exists: that needs its secret.
    expect(pages[0]).to.equal(pages[1]);
    const malformed = await fetch(at("/orders/ord_%3Cscript%3E"));
    expect(await contract.check("GET", "/orders/ord_%3Cscript%3E", malformed.clone())).to.deep.equal([]);
    expect(malformed.status).to.equal(422);
    expect(await malformed.text()).to.include("This address is not valid").and.not.include("<script>");
    const script = await fetch(at("/assets/orders.js"));
    expect(await contract.check("GET", "/assets/orders.js", script.clone())).to.deep.equal([]);
    expect(script.headers.get("content-type")).to.equal("application/javascript; charset=utf-8");
    expect(await script.text()).to.include("X-Order-Secret");
  });

  // Over the orders the tests above placed: one paid by cash, one by bKash.
  it("lists the orders, refunds one from its page, and shows the gateway keys: axe finds nothing serious", async function () {
    this.timeout(60_000);
    const { context, page } = await newPage(DESKTOP);
    try {
      await page.goto(at("/dashboard/orders"));
      await signIn(page, owner, "Orders");
      await loaded(page);
      const table = page.getByRole("table");
      await table.waitFor({ timeout: WAIT_MS });
      expect(await table.getByText("Paid and verified").count()).to.be.at.least(2);
      await page.screenshot({ path: `${SHOTS}/payments-orders.png`, fullPage: true });
      await expectNoSeriousAxe(page, "the orders list");

      await page.getByLabel("Payment method").selectOption("bkash");
      await page.getByRole("button", { name: "Show orders" }).click();
      await page.waitForURL(/method=bkash/, { timeout: WAIT_MS });
      await loaded(page);
      // The previous list stays on screen until the filtered one arrives: wait for the one bKash order alone.
      await table.locator("tbody tr").nth(1).waitFor({ state: "detached", timeout: WAIT_MS }).catch(() => undefined);
      expect(await table.getByRole("row").count()).to.equal(2);
      await table.getByRole("link").first().click();
      await page.getByRole("heading", { level: 1, name: /^Order ord_/ }).waitFor({ timeout: WAIT_MS });
      await loaded(page);
      await page.getByRole("region", { name: "What happened" }).getByText("Awaiting payment → Paid").waitFor({ timeout: WAIT_MS });
      await expectNoSeriousAxe(page, "an order's page");
      await page.getByLabel("Amount to refund (BDT)").fill("500");
      await page.getByLabel("Reason").fill("Size exchange: partial refund");
      await page.getByRole("button", { name: "Refund…" }).click();
      await page.getByRole("button", { name: /^Yes, refund .*500\.00$/ }).click();
      await page.getByRole("status").filter({ hasText: /500\.00/ }).waitFor({ timeout: WAIT_MS });
      await page.getByRole("region", { name: "Summary" }).getByText("Refunded").waitFor({ timeout: WAIT_MS });
      await page.screenshot({ path: `${SHOTS}/payments-order-refunded.png`, fullPage: true });

      await page.goto(at("/dashboard/gateway-keys"));
      await page.getByRole("heading", { level: 1, name: "Gateway keys" }).waitFor({ timeout: WAIT_MS });
      await loaded(page);
      const bkashCard = page.getByRole("region", { name: "bKash" });
      expect(await bkashCard.textContent()).to.include("Offered to shoppers");
      // Secrets are never filled in.
      for (const input of await bkashCard.locator('input[type="password"]').all()) expect(await input.inputValue()).to.equal("");
      await expectNoSeriousAxe(page, "the gateway keys screen");

      // Nagad through the form: the keys are checked with Nagad before anything is kept, its refusal is shown; the
      // PEM private key survives a one-line password input.
      const nagadCard = page.getByRole("region", { name: "Nagad" });
      const keys = nagad.credentials;
      await nagadCard.getByLabel("Merchant ID").fill(keys.merchant_id!);
      await nagadCard.getByLabel("Merchant account number").fill("01700000000");
      await nagadCard.getByLabel("Merchant private key").fill(keys.merchant_private_key!);
      await nagadCard.getByLabel("Nagad public key").fill(keys.pg_public_key!);
      await nagadCard.getByRole("button", { name: "Check and save Nagad" }).click();
      await nagadCard.getByRole("alert").filter({ hasText: "Nagad refused these keys" }).waitFor({ timeout: WAIT_MS });
      expect(await nagadCard.textContent()).to.include("Not configured");
      await nagadCard.getByLabel("Merchant account number").fill(keys.account_number!);
      await nagadCard.getByRole("button", { name: "Check and save Nagad" }).click();
      await nagadCard.getByRole("status").filter({ hasText: "Nagad accepted the keys" }).waitFor({ timeout: WAIT_MS });
      await nagadCard.getByText("Offered to shoppers").waitFor({ timeout: WAIT_MS });
      expect(await nagadCard.getByLabel("Merchant private key").inputValue()).to.equal("");
      await page.screenshot({ path: `${SHOTS}/payments-gateway-keys.png`, fullPage: true });
    } finally {
      await context.close();
    }
  });
});
