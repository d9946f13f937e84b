// The customer-facing pages (spec 1): GET /scan/:uid, GET /dpp-certificate/:uid and GET /brand/:slug, rendered on
// the server in the brand's white-label theme.
import type Router from "@koa/router";
import type { Context, Middleware } from "koa";
import type { AppDeps, AppState } from "../../deps";
import { validateParams } from "../../middleware/validate-params";
import type { OpenApiRegistry } from "../../openapi/registry";
import { brandProfilePage } from "../../pages/brand-profile";
import { certificatePage } from "../../pages/certificate";
import { htmlErrors, sendPage } from "../../middleware/page-response";
import { scanPage } from "../../pages/scan";
import { brandProfileUrl } from "../../links";
import { defineRoute, HTML, mountRoutes } from "../define-route";
import { slugParam, uidParam } from "./schemas";
import { orderPageRoutes, purchaseOffer } from "./order-pages";
import { clientKeyOf, SCAN_COUNTING } from "../../scans/scan-recorder";
import { brandProfile } from "../../brands/brand-profile";
import { qrSvg } from "../../pages/qr-code";
import { passportPage, type PassportPage } from "../../passports/passport-page";
import { checkTap, UNVERIFIED_TAP } from "../../tags/verification";
import { clientRegionOf } from "../scan/client-region";
import { requestLanguage } from "./language";
import { fontAssetRoutes } from "./font-assets";
import { pickTexts, translatedNames, translationOf } from "../../i18n/product-texts";
import type { Lang } from "../../i18n/languages";
import type { MachineLinks } from "../../pages/machine-readable";
import { credentialNegotiation } from "../interop/router";

export const PASSPORT_ERRORS = {
  notFound: "No product passport has this address. Check the link on the tag or the label, or ask the brand.",
  invalid: "A passport address ends in a product UID such as DEMO-7K3M9Q2X; this one does not.",
};
export const BRAND_ERRORS = {
  notFound: "There is no brand profile at this address.",
  invalid: "A brand address ends in the brand's short name, such as demo-apparel; this one does not.",
};

/** The product's name and description in `lang`: the brand's translation when there is one, else the anchored words. */
async function pageTexts(deps: AppDeps, view: PassportPage, lang: Lang): Promise<{ name: string; description: string }> {
  const translation = await translationOf(deps.db, view.passport.product.id, lang);
  const { name, description } = pickTexts(view.record.content.product, translation);
  return { name, description };
}

/** The interop links of a minted passport (the credential exists only then); with its Digital Link when it has a GTIN. */
function machineLinks(view: PassportPage): MachineLinks | undefined {
  if (view.record.blockchain.tx_hash === null) return undefined;
  const { gtin, lot, serial } = view.passport.product;
  return { uid: view.record.uid, gtin: gtin ? { gtin, lot, serial } : null };
}

/** Browsers fetching a page speculatively; a prefetch is not a shopper looking at the product. */
function isPrefetch(ctx: Context): boolean {
  return /prefetch|prerender/i.test(`${ctx.get("Sec-Purpose")} ${ctx.get("Purpose")} ${ctx.get("X-Moz")}`);
}

/**
 * The passport as a page, for a browser that opens a product's dpp_url (GET /api/dpp/:uid preferring text/html):
 * the scan page's view of the record, without counting a scan. Errors are pages too.
 */
export function passportPageHandler(deps: AppDeps): Middleware<AppState> {
  const errors = htmlErrors(deps.logger, PASSPORT_ERRORS);
  const validate = validateParams(uidParam);
  return (ctx) =>
    errors(ctx, () =>
      validate(ctx, async () => {
        const view = await passportPage(deps, ctx.params.uid!);
        const pageUrl = view.record.links.dpp_url;
        const lang = requestLanguage(ctx);
        const texts = await pageTexts(deps, view, lang);
        const machine = machineLinks(view);
        sendPage(ctx, scanPage({ record: view.record, withheld: view.withheld, brand: view.brand, pageUrl, pdfUrl: view.pdfUrl, lang, texts, ...(machine ? { machine } : {}) }), "public, max-age=5");
      }),
    );
}

export function pagesRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const { config, logger } = deps;
  const scans = deps.scanRecorder;
  const passportErrors = htmlErrors(logger, PASSPORT_ERRORS);
  const passportResponses = {
    "200": HTML("HTML page"),
    "404": HTML("no passport for that UID (HTML page)"),
    "422": HTML("not a UID (HTML page)"),
  };

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/scan/:uid",
      operationId: "getScanPage",
      tag: "Pages",
      auth: "public",
      summary: "Scan page: what a shopper sees after tapping the NFC tag (white-label, mobile first); views are counted as scans",
      description:
        "An NTAG 424 DNA tag opens it with SUN parameters (`picc_data`, `cmac`, optionally `enc`): the page then checks " +
        "the tap (as GET /api/scan/{uid}) and says first, in words for shoppers, whether it is authentic, replayed, " +
        "invalid, from an unknown tag or from another product's tag; a malformed parameter is an invalid tap, never an " +
        "error page. Without them nothing is checked. Other query parameters are ignored. " +
        `A GET (not HEAD, not browser prefetch) records a scan once per client and product in ${SCAN_COUNTING.windowSeconds / 60} minutes ` +
        "(an authentic tap counts each time), " +
        `and at most ${SCAN_COUNTING.perClientPerHour} per client (IPv4 address or IPv6 /64) an hour: a row in scan_events, ` +
        "one unit of the brand's monthly scans, webhook events scan.detected and (for an authentic tap of a passport " +
        "verified on chain) scan.verified. Counting happens after the response; the page is the same whether or not the " +
        "view counted, and with the quota exhausted. HEAD and prefetches check no tap. Cache-Control: no-store.",
      params: uidParam,
      // A client preferring the UNTP credential to HTML gets it here (routes/interop/router.ts; docs/interop.md).
      before: [credentialNegotiation(deps), passportErrors],
      responses: passportResponses,
      handler: async (ctx) => {
        const view = await passportPage(deps, ctx.params.uid);
        // Only a real view counts: HEAD (link checkers) and browser prefetches see the page without a scan, and check
        // no tap (checking accepts the counter, and the shopper's own view would then read as replayed). Counting
        // happens after the response, if at all: the shopper never waits for it and never sees its outcome.
        const live = ctx.method === "GET" && !isPrefetch(ctx);
        const region = clientRegionOf(ctx, config);
        const product = { id: view.passport.product.id, brandId: view.passport.product.brand_id };
        const tap = live ? await checkTap(deps, product, ctx.query, { key: clientKeyOf(ctx.ip), region }) : UNVERIFIED_TAP;
        if (live) scans.offer(clientKeyOf(ctx.ip), view, { verdict: tap.verdict, region });
        const pageUrl = view.record.links.scan_url;
        const notice = tap.verdict === "unverified" ? undefined : { verdict: tap.verdict, chip: tap.chip };
        const purchase = await purchaseOffer(deps, view);
        const lang = requestLanguage(ctx);
        const texts = await pageTexts(deps, view, lang);
        const machine = machineLinks(view);
        sendPage(
          ctx,
          scanPage({ record: view.record, withheld: view.withheld, brand: view.brand, pageUrl, pdfUrl: view.pdfUrl, tap: notice, purchase, lang, texts, ...(machine ? { machine } : {}) }),
          "no-store",
        );
      },
    }),
    defineRoute({
      method: "get",
      path: "/dpp-certificate/:uid",
      operationId: "getCertificatePage",
      tag: "Pages",
      auth: "public",
      summary: "Certificate page: token, contract, transaction, data hashes, QR code, PDF link and how to verify independently",
      description: "An existing product whose certificate is not yet issued answers 200 saying so.",
      params: uidParam,
      // A client preferring the UNTP credential to HTML gets it here (routes/interop/router.ts; docs/interop.md).
      before: [credentialNegotiation(deps), passportErrors],
      responses: passportResponses,
      handler: async (ctx) => {
        const view = await passportPage(deps, ctx.params.uid);
        const { links } = view.record;
        const issued = view.record.blockchain.tx_hash !== null;
        const issuedAt = view.passport.indexed?.mintedAt ?? view.passport.product.passport_minted_at ?? null;
        const lang = requestLanguage(ctx);
        const machine = machineLinks(view);
        const rendered = certificatePage({
          lang,
          productName: (await pageTexts(deps, view, lang)).name,
          ...(machine ? { machine } : {}),
          record: view.record,
          withheld: view.withheld,
          brand: view.brand,
          pageUrl: links.certificate_url,
          dppUrl: links.dpp_url,
          pdfUrl: view.pdfUrl,
          issuedAt: issuedAt ? new Date(issuedAt) : null,
          qrSvg: issued ? await qrSvg(links.certificate_url) : null,
        });
        sendPage(ctx, rendered, "public, max-age=30");
      },
    }),
    defineRoute({
      method: "get",
      path: "/brand/:slug",
      operationId: "getBrandPage",
      tag: "Pages",
      auth: "public",
      summary: "Brand profile page: logo, tagline, about, social links, product counts, latest certified products",
      params: slugParam,
      before: [
        htmlErrors(logger, BRAND_ERRORS),
        async (ctx, next) => {
          // Slugs are lower case; a link typed with capitals still finds the brand.
          ctx.params.slug = ctx.params.slug!.toLowerCase();
          await next();
        },
      ],
      responses: {
        "200": HTML("HTML page"),
        "404": HTML("unknown or suspended brand (HTML page)"),
        "422": HTML("not a brand slug (HTML page)"),
      },
      handler: async (ctx) => {
        const profile = await brandProfile(deps, ctx.params.slug);
        const pageUrl = brandProfileUrl(config, profile.address);
        const lang = requestLanguage(ctx);
        const names = await translatedNames(deps.db, profile.latest.map((p) => p.uid), lang);
        sendPage(ctx, brandProfilePage({ ...profile, pageUrl, lang, translatedNames: names }), "public, max-age=60");
      },
    }),
    ...orderPageRoutes(deps),
    ...fontAssetRoutes(),
  ]);
}
