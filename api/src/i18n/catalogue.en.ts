// The English words of the shopper pages and the certificate PDF. Every key has its Bengali twin in catalogue.bn.ts
// (the type makes a missing one a compile error); a function takes what the sentence needs.
import type { PaymentMethod } from "../plans/catalogue";
import type { CarbonRating } from "../products/carbon";
import type { TapVerdict } from "../tags/verdicts";
import type { TEXTILE_STAGES } from "../passports/textile";
import { html, type SafeHtml } from "../pages/html";
import { CARE_SYMBOL_WORDS, DURABILITY_PROPERTY_WORDS } from "../passports/textile-words";

/** The pieces of the certificate page's "verify yourself" steps that are markup, not words. */
export type VerifyStepParts = { dppLink: SafeHtml; uid: string; tokenId: SafeHtml; contract: SafeHtml; network: string };

type Words = { headline: string; detail: string };
const possessive = (name: string) => `${name}'s`;
const sentenceEnd = (name: string) => `${name}${name.endsWith(".") ? "" : "."}`;
type TextileStage = (typeof TEXTILE_STAGES)[number];

export const EN = {
  language: "Language",
  serviceName: "Digital Product Passport",
  footerTagline: "EU Digital Product Passport · anchored on a public blockchain",
  elsewhere: (brand: string) => `${brand} elsewhere`,
  logoAlt: (brand: string) => `${brand} logo`,
  website: "Website",

  // Scan page
  verifiedOn: (network: string) => `✓ Verified on ${network}`,
  beingWritten: (network: string) => `The certificate is being written to ${network}; it shows as verified once confirmed.`,
  notYetCertified: "Not yet certified",
  reportedStolen: (brand: string) => `This product has been reported stolen. If it was offered to you, contact ${brand}.`,
  reportedLost: "This product has been reported lost.",
  recovered: "This product was reported lost or stolen and has since been recovered.",
  hashMismatch: "The passport data shown here differs from what was certified on chain.",
  carbonFootprint: "Carbon footprint",
  ratingChip: (letter: string) => `Rating ${letter}`,
  carbonNote: (letter: string, bound: string) => `Estimated cradle-to-gate footprint; rating ${letter} means ${bound}.`,
  carbonLabels: { A: "Low impact", B: "Moderate", C: "High", D: "Very high" } as Record<CarbonRating, string>,
  carbonBounds: {
    A: "at most 2 kg CO2e",
    B: "at most 5 kg CO2e",
    C: "at most 10 kg CO2e",
    D: "more than 10 kg CO2e",
  } as Record<CarbonRating, string>,
  fibreComposition: "Fibre composition",
  certifications: "Certifications",
  noCertifications: "No certifications declared for this product.",
  certificationNumber: (number: string) => `no. ${number}`,
  validUntil: (date: string) => `valid until ${date}`,
  evidence: "evidence",
  manufacturer: "Manufacturer",
  notDeclaredYet: "Not declared yet.",
  factory: "Factory",
  location: "Location",
  attribution: "Attribution",
  confirmedByFactory: "Confirmed by the factory",
  declaredByBrand: "Declared by the brand",
  registry: "Registry",
  verifiedFactory: "✓ Verified factory",
  notVerified: "Not verified",
  supplyChain: "Supply chain",
  // A passport with elements the public does not see (docs/access.md): one line, where they would have been.
  withheldForAuthorised: "Some supply-chain and test details are available to authorised readers only.",
  transactionLink: "transaction",
  stages: {
    fibre_sourced: "Fibre sourced",
    spun: "Spun",
    woven_or_knitted: "Woven or knitted",
    dyed_or_printed: "Dyed or printed",
    cut: "Cut",
    sewn: "Sewn",
    finished: "Finished",
    quality_checked: "Quality checked",
    packed: "Packed",
    shipped: "Shipped",
    received: "Received",
    retail_ready: "Retail ready",
  } as Record<string, string>,
  careInstructions: "Care instructions",
  // The textile section (issue 26), on the scan page and the certificate PDF
  madeWhere: "Made where",
  textileStages: {
    recycling: "Recycling",
    fibre: "Fibre",
    spinning: "Spinning",
    weaving_knitting: "Weaving or knitting",
    dyeing_printing_finishing: "Dyeing, printing and finishing",
    making_up: "Making up (cutting and sewing)",
  } as Record<TextileStage, string>,
  stageDates: (started: string | null, completed: string | null) =>
    started && completed ? `${started} to ${completed}` : started ? `started ${started}` : completed ? `completed ${completed}` : "",
  confirmedByFacility: (date: string | null) => (date ? `✓ Confirmed by the facility on ${date}` : "✓ Confirmed by the facility"),
  facilityIdSchemes: { gln: "GLN", osh: "Open Supply Hub", registry: "Registry id" } as Record<"gln" | "osh" | "registry", string>,
  materials: "Materials",
  materialOrigin: "origin",
  recycledShare: (percent: number, origin: string | null) => `${percent}% recycled${origin ? ` (${origin})` : ""}`,
  recycledOrigins: { pre_consumer: "pre-consumer", post_consumer: "post-consumer" } as Record<"pre_consumer" | "post_consumer", string>,
  recycledTotal: (percent: string) => `Recycled content: ${percent}% of the weight`,
  substancesOfConcern: "Substances of concern",
  substanceIds: (cas: string | null, ec: string | null) => [cas ? `CAS ${cas}` : "", ec ? `EC ${ec}` : ""].filter(Boolean).join(" · "),
  concentration: (percent: number) => `${percent}% by weight`,
  concentrationLabel: "Concentration",
  whereInProduct: "Where",
  safeUse: "Safe use",
  durability: "Durability",
  durabilityProperties: DURABILITY_PROPERTY_WORDS,
  testedTo: (standard: string) => `tested to ${standard}`,
  durabilityClass: (value: string) => `class ${value}`,
  careSymbols: CARE_SYMBOL_WORDS,
  careSymbolsLabel: "Care symbols (ISO 3758)",
  repair: "Repair",
  spareParts: "Spare parts",
  repairService: "Repair service",
  endOfLife: "End of life",
  recyclability: "Recyclability",
  takeBack: "Take-back",
  takeBackLink: "Where to return it",
  productPhotos: "Product photos",
  productPhotoAlt: (name: string, n: number, total: number) => `${name}, photo ${n} of ${total}`,
  productDetails: "Product details",
  productionDate: "Production date",
  commodityCode: "Commodity code",
  commodityCodes: (hs6: string | null, cn8: string | null) => [hs6 ? `HS ${hs6}` : "", cn8 ? `CN ${cn8}` : ""].filter(Boolean).join(" · "),
  carbonFromPefStudy: (reference: string) => `From the brand's PEF study ${reference}`,
  carbonOurEstimate: "Our estimate, from the product's category and fabric: not a certified label.",
  carbonMethod: "Method",
  // Model, batch and item passports (issue 25)
  lineage: "Model and batch",
  model: "Model",
  batch: "Batch",
  linkedPassport: (uid: string) => `passport ${uid}`,
  modelPassportCovers: "Model passport: covers every item of this style.",
  batchPassportCovers: (lot: string | null) =>
    lot ? `Batch passport: covers every item of production lot ${lot}.` : "Batch passport: covers every item of this production lot.",
  inheritedFrom: { model: "from the model", batch: "from the batch" } as Record<"model" | "batch", string>,
  changedSince: "its passport has changed since",
  certificate: "Certificate",
  viewCertificate: "View certificate",
  certificateStatus: "Certificate status",
  downloadPdf: "Download PDF",
  passportUid: (uid: string) => `Passport ${uid}`,
  scanDescription: (verified: boolean, carbonLabel: string) =>
    `${verified ? "Verified" : "Digital"} product passport: ${carbonLabel} carbon footprint, materials, origin and care.`,
  tagCheck: "Tag check",
  secureTag: "Secure tag (NTAG 424 DNA): it cannot be copied without the brand's keys.",
  tapWords: (verdict: TapVerdict, brand: string): Words => {
    switch (verdict) {
      case "authentic":
        return {
          headline: "Genuine tag",
          detail: "This page was opened by the secure NFC tag made for this product. The tag signs every tap with a new code, and this one checked out just now.",
        };
      case "replayed":
        return {
          headline: "This link was used before",
          detail:
            "The secure tag makes a new link every time it is tapped, and this one has been opened already. If you are holding the product, tap its tag again: a link sent to you or saved earlier does not show that the product is genuine.",
        };
      case "invalid":
        return {
          headline: "This tag could not be verified",
          detail: `The code in this link does not match the secure tag of this product: the tag or the link may be copied or altered. Buy only from sellers you trust, or ask ${sentenceEnd(brand)}`,
        };
      case "unknown_tag":
        return {
          headline: "Unknown tag",
          detail: `This link carries a tag code, but no secure tag is registered for this product, so it cannot be checked. Ask ${brand} if the product came with a secure tag.`,
        };
      case "not_bound":
        return {
          headline: "This tag belongs to another product",
          detail: `The tag is one of ${possessive(brand)} genuine tags, but it was made for a different item. Check that the tag is attached to the product it came with.`,
        };
      case "unverified":
        return { headline: "Tag not checked", detail: "This page was opened without a secure tag code, so only the passport below is shown." };
    }
  },

  // Machine-readable passport block (scan and certificate pages)
  machineReadable: "Machine-readable passport",
  machineReadableIntro: "The same passport in open formats, for apps, customs and recyclers:",
  credentialJwt: "UNTP credential (signed, JWT)",
  credentialJson: "UNTP credential (JSON-LD)",
  catenaX: "Catena-X passport (JSON)",
  digitalLink: "GS1 Digital Link",

  // Certificate page
  certificateOfAuthenticity: "Certificate of authenticity",
  brand: "Brand",
  category: "Category",
  sku: "SKU",
  passport: "Passport",
  onChainRecord: "On-chain record",
  status: "Status",
  issuedWaiting: "Issued, waiting for confirmation",
  tokenId: "Token id",
  contract: "Contract",
  network: "Network",
  networkWithChainId: (network: string, chainId: number) => `${network} (chain id ${chainId})`,
  transaction: "Transaction",
  issued: "Issued",
  dataHashChain: "Data hash (chain)",
  computedHash: "Computed hash",
  hashes: "Hashes",
  notIndexedYet: "not indexed yet",
  hashesMatch: "✓ match",
  hashesDiffer: "✗ differ: the data changed since it was certified",
  shareCertificate: "Share this certificate",
  qrLabel: "QR code of this certificate's address",
  downloadCertificatePdf: "Download certificate (PDF)",
  pdfOnceMinted: "The PDF is available once the passport is minted.",
  howToVerify: "How to verify this yourself",
  verifySteps: (p: VerifyStepParts): SafeHtml[] => [
    html`Download the passport record: ${p.dppLink}.`,
    html`Serialise its <code>content</code> object as canonical JSON (RFC 8785) and hash the UTF-8 bytes with keccak256.`,
    html`Compute the token id: <code>tokenId = keccak256(utf8("${p.uid}"))</code> as a uint256 (= ${p.tokenId}).`,
    html`Call <code>dataHashOf(tokenId)</code> on the contract ${p.contract} on ${p.network}, with any RPC node or block explorer.`,
    html`The passport is authentic when both hashes are equal. The transaction above shows when and by whom it was anchored.`,
  ],
  certificateNotIssued: "Certificate not yet issued",
  notIssuedText: (brand: string, network: string) =>
    `This product's passport exists, but ${brand} has not yet issued its certificate on ${network}. Check again later.`,
  certificateTitle: (product: string, brand: string) => `Certificate of authenticity · ${product} · ${brand}`,
  certificateDescription: (product: string, brand: string) => `Blockchain certificate of ${product} by ${brand}.`,
  certificatePendingDescription: (product: string, brand: string) => `${product} by ${brand}: certificate not yet issued.`,

  // Brand profile
  about: "About",
  findUs: "Find us",
  passports: "Passports",
  productsCount: "products",
  certifiedOnChain: "certified on chain",
  latestCertified: "Latest certified products",
  noCertifiedYet: "No certified products yet.",
  carbonSummary: (letter: string, label: string, kg: string) => `carbon ${letter} (${label}, ${kg})`,
  brandDescription: (brand: string) => `${brand}: products with EU Digital Product Passports.`,

  // Purchase section and order page
  buy: "Buy",
  pricePrefix: "Price: ",
  payNeedsScript: "Paying here needs JavaScript. Turn it on, or pay in the shop.",
  chooseHowToPay: "Choose how to pay:",
  /** A shopper's names of the ways to pay: a shopper pays cash, the QR code is how. */
  methodNames: { bkash: "bKash", nagad: "Nagad", sslcommerz: "Card (SSLCommerz)", cash_qr: "Cash at the till" } as Record<PaymentMethod, string>,
  payAtTill: "Pay at the till",
  cashierQrAlt: "QR code for the cashier to scan",
  showCashier: "Show this to the cashier.",
  cashierScans: "The cashier scans it to confirm your payment. Keep this page open.",
  yourOrderPage: "Your order's page",
  order: "Order",
  yourOrder: "Your order",
  orderNeedsScript: "This page needs JavaScript to show your order: the order's key stays in your browser and never travels in a link's address.",
  loadingOrder: "Loading your order…",
  backToProduct: "Back to the product",
  receipt: "Receipt",
  product: "Product",
  amount: "Amount",
  paidWith: "Paid with",
  paid: "Paid",
  confirmed: "Confirmed",
  keepReceipt: "Keep this page, or note the order number, in case you need to ask the shop about this payment.",
  beingConfirmedWithProvider: "Being confirmed with the payment provider…",

  // What the page's script (assets/orders.client.js) says while it places and follows an order
  orderStates: {
    created: "Started",
    pending: "Waiting for payment",
    paid: "Paid, being confirmed",
    verified: "Paid",
    failed: "Payment failed",
    cancelled: "Cancelled",
    expired: "Expired",
    refund_pending: "Refund in progress",
    refund_unknown: "Refund being confirmed",
    refunded: "Refunded",
  } as Record<string, string>,
  /**
   * Where the order stands, in a sentence (as GET /api/orders/{id} says it in English, routes/orders/presenter.ts).
   * Keyed by string, not OrderState, so that a state added to the orders is a test failure here (test/api/i18n-*),
   * not a compile error in the middle of someone's change; empty for a state without words yet.
   */
  orderMessage: (state: string, gateway: string, cash: boolean): string => {
    switch (state) {
      case "created":
        return "Your order is being set up.";
      case "pending":
        return cash ? "Show the QR code to the cashier to pay." : `Waiting for your payment with ${gateway}.`;
      case "paid":
        return `Payment received. We are confirming it with ${gateway}.`;
      case "verified":
        return "Payment received. Thank you.";
      case "failed":
        return "The payment did not go through. You can try again.";
      case "cancelled":
        return "The payment was cancelled.";
      case "expired":
        return "This order expired before it was paid. Nothing was charged; you can place a new one.";
      case "refund_pending":
        return "Your payment is being refunded.";
      case "refund_unknown":
        return `A refund was asked for; the shop is confirming it with ${gateway}.`;
      case "refunded":
        return "Your payment was refunded.";
      default:
        return "";
    }
  },
  paymentReceived: "✓ Payment received. Thank you.",
  waitingForCashier: "Waiting for the cashier to confirm…",
  placingOrder: "Placing your order…",
  takingYouTo: (method: string) => `Taking you to ${method}…`,
  shopUnreachable: "The shop could not be reached. Check your connection and try again.",
  tooManyAttempts: "Too many attempts from your connection. Wait a minute, then try again.",
  notOnSale: "This product is not on sale here right now.",
  methodUnavailable: (method: string) => `${method} is not available for this product right now. Choose another way to pay.`,
  gatewayUnavailable: (method: string) => `${method} could not be reached, so nothing was charged. Try again in a moment, or choose another way to pay.`,
  productGone: "This product can no longer be bought here.",
  orderRefused: "The order could not be placed: the shop refused it.",
  orderFailed: (reference: string) => `The order could not be placed. Try again in a moment (reference ${reference}).`,
  orderFailedNoReference: "The order could not be placed. Try again in a moment.",
  noNextStep: "The order was placed but the shop did not say how to pay. Open your order's page to see it.",
  noSuchOrder: "No order matches this page and its key. Open the link the payment page sent you back with, or ask the shop.",
  busyConnection: "Many shoppers are checking their orders from this connection; checking again in a minute…",
  connectionLost: "The connection to the shop was lost; still trying…",
  shopBusy: "The shop could not answer just now; still trying…",
  stoppedChecking: "This page stopped checking after 30 minutes; reload it to see where the order stands.",
  noKey: (orderId: string) =>
    `This browser has no key for this order, so its details cannot be shown. Open the link the payment page sent you back with, in the browser you paid with, or ask the shop about order ${orderId}.`,

  // Certificate PDF
  pdfTitle: "Digital Product Passport — Certificate of Authenticity",
  pdfProduct: "Product",
  pdfUid: "UID",
  pdfIssuedUtc: "Issued (UTC)",
  pdfScanToOpen: "Scan to open this passport",
  pdfBlockchainRecord: "Blockchain record",
  pdfTokenId: "Token ID",
  pdfDataHash: "Data hash",
  pdfExplorer: "Explorer",
  pdfHowToVerify: "How to verify",
  pdfCarbon: (kg: string, rating: string) => `${kg}, rating ${rating}`,
  pdfCovers: "Covers",
  pdfTextile: "Textile passport",
  pdfTextileFollows: "Made where, materials, substances, durability, care, repair and carbon: on the next pages",
  pdfTextileContinued: (uid: string) => `Textile passport of ${uid} (continued)`,
  pdfLineage: (granularity: "model" | "batch" | "item", links: { model?: string; batch?: string; lot?: string | null }) =>
    [
      granularity === "model" ? "Every item of this style (model passport)" : granularity === "batch" ? `Every item of ${links.lot ? `lot ${links.lot}` : "this lot"} (batch passport)` : "This item",
      ...(links.model ? [`model passport ${links.model}`] : []),
      ...(links.batch ? [`batch passport ${links.batch}`] : []),
    ].join(" · "),
  pdfNotKnown: "not known",
  pdfRecordOnIssuer: (path: string) => `${path} on the service that issued this certificate`,
  pdfVerifyText: (dppPath: string, contract: string, network: string, chainId: number) =>
    `Fetch the public passport record at ${dppPath} and take its "content" object. ` +
    "Serialise it as canonical JSON (RFC 8785), encode it as UTF-8 and compute its keccak256 hash. " +
    "The result must equal the data hash above, and the data hash stored on chain for this token id " +
    `in the contract ${contract} on ${network} (chain id ${chainId}); ` +
    "the transaction above is the one that anchored it. Any edit to the passport content changes the hash.",
  pdfFooter: (producer: string, brand: string, issuedAt: string) =>
    `Issued by ${producer} for ${brand} on ${issuedAt}. The record on chain is authoritative; this document is a copy of it.`,
};

/** The shape both catalogues have: EN's keys with widened types. */
export type Messages = typeof EN;
