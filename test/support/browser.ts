// Headless Chromium for browser tests: Debian's chromium driven by playwright-core (ARCHITECTURE: browser tests), and
// axe-core run in the page. In CI a missing browser fails the test; locally it is skipped and named loudly.
import { existsSync, readFileSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

/** Launches Chromium, or skips the suite (throws in CI) when it is not installed. */
export async function launchChromium(context: Mocha.Context, what: string): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    if (process.env.CI) throw new Error(`${CHROMIUM} is missing; CI must install Debian's chromium`);
    console.warn(`\n  !!! SKIPPED: ${CHROMIUM} is missing, so ${what} is not tested in a browser here (apt-get install chromium).\n`);
    context.skip();
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/**
 * A page in a fresh context (its own cookies) whose console errors and uncaught exceptions go into `errors`.
 * Chromium logs every 4xx answer as an error; the pages handle those (a 401 sends to sign-in, a 409 is explained).
 */
export async function watchedPage(browser: Browser, options: BrowserContextOptions, errors: string[]): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" && !/status of 4\d\d/.test(message.text())) errors.push(`${message.text()} (${page.url()})`);
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message} (${page.url()})`));
  return { context, page };
}

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: Array<{ target: string[]; failureSummary?: string }> };

const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page as it is now. The source is evaluated through the
 * DevTools protocol, not added as a <script>, so the page's Content-Security-Policy stays as strict as users get it.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  // A string, so it runs in the page (which has window and axe) and this file needs no DOM types.
  return page.evaluate(`(async () => {
    const result = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  })()`) as Promise<AxeViolation[]>;
}

/** The serious and critical violations, each with where it is, as one readable string per violation. */
export function seriousViolations(violations: AxeViolation[]): string[] {
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
}
