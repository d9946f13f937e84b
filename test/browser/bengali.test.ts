// The Bengali pages in a real Chromium: the scan and certificate pages render in Bengali with the served Noto Sans
// Bengali (no system Bengali font needed), the English | বাংলা switch works and sticks, axe-core finds nothing
// serious; screenshots and a PNG of the Bengali certificate PDF are kept for a person to check the shaping.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { expect } from "chai";
import type { Browser, Page } from "playwright-core";
import { axeViolations, launchChromium, seriousViolations } from "../support/browser";
import { sharedStack, type SeededStack } from "../support/shared-stack";

const SHOTS = "/tmp/h/shots";
const PHONE = { width: 390, height: 844 };

describe("Bengali pages in the browser", function () {
  let browser: Browser;
  let stack: SeededStack;
  let base: string;
  const minted = () => stack.demo.products.find((p) => p.minted)!.uid;

  before(async function () {
    this.timeout(300_000);
    browser = await launchChromium(this, "the Bengali pages");
    mkdirSync(SHOTS, { recursive: true });
    stack = await sharedStack();
    base = stack.api.url;
  });

  after(async () => {
    await browser?.close();
  });

  /** Waits for the web fonts the page uses, then reports which faces loaded. */
  async function loadedFonts(page: Page): Promise<string[]> {
    return page.evaluate(`(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family + " " + f.weight);
    })()`) as Promise<string[]>;
  }

  it("shows the scan page in Bengali after the switch, in Noto Sans Bengali, and keeps the choice", async function () {
    this.timeout(60_000);
    const context = await browser.newContext({ viewport: PHONE, locale: "en-GB" });
    const page = await context.newPage();
    await page.goto(`${base}/scan/${minted()}`);
    expect(await page.getAttribute("html", "lang")).to.equal("en");
    await page.getByRole("navigation", { name: "Language" }).getByRole("link", { name: "বাংলা" }).click();
    await page.waitForURL(/\?lang=bn$/);
    expect(await page.getAttribute("html", "lang")).to.equal("bn");
    expect(await loadedFonts(page)).to.include.members(["Noto Sans Bengali 700", "Noto Sans Bengali 400"]);
    expect(await page.getByRole("heading", { name: "সার্টিফিকেট", exact: true }).count()).to.equal(1);
    await page.screenshot({ path: `${SHOTS}/bengali-scan.png`, fullPage: true });
    expect(seriousViolations(await axeViolations(page))).to.deep.equal([]);

    // The cookie carries the choice to the next page; the switch goes back to English.
    await page.getByRole("link", { name: "সার্টিফিকেট দেখুন" }).click();
    await page.waitForURL(/dpp-certificate/);
    expect(await page.getAttribute("html", "lang")).to.equal("bn");
    await loadedFonts(page);
    await page.screenshot({ path: `${SHOTS}/bengali-certificate.png`, fullPage: true });
    expect(seriousViolations(await axeViolations(page))).to.deep.equal([]);
    await page.getByRole("link", { name: "English" }).click();
    await page.waitForURL(/\?lang=en$/);
    expect(await page.getAttribute("html", "lang")).to.equal("en");
    expect(await page.getByText("Certificate of authenticity").count()).to.be.greaterThan(0);
    await context.close();
  });

  it("follows a Bengali browser's Accept-Language without a switch", async function () {
    this.timeout(60_000);
    const context = await browser.newContext({ viewport: PHONE, locale: "bn-BD" });
    const page = await context.newPage();
    await page.goto(`${base}/brand/${stack.demo.brand_slug}`);
    expect(await page.getAttribute("html", "lang")).to.equal("bn");
    await loadedFonts(page);
    await page.screenshot({ path: `${SHOTS}/bengali-brand.png`, fullPage: true });
    expect(seriousViolations(await axeViolations(page))).to.deep.equal([]);
    await context.close();
  });

  it("downloads the Bengali certificate PDF, kept as a PNG to look at", async function () {
    this.timeout(60_000);
    const res = await fetch(`${base}/certificates/${minted()}.pdf?lang=bn`);
    expect(res.status).to.equal(200);
    const file = `${SHOTS}/bengali-certificate.pdf`;
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    execFileSync("pdftoppm", ["-png", "-r", "100", "-singlefile", file, `${SHOTS}/bengali-certificate-pdf`]);
  });
});
