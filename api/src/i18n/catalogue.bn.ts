// বাংলা: the Bengali words of the shopper pages and the certificate PDF, key for key as catalogue.en.ts. Digits stay
// Latin (see INTL_LOCALES); brand and network names are joined with "-এর" / "-এ" as written Bengali does with
// names in Latin script.
import { html } from "../pages/html";
import type { Messages } from "./catalogue.en";

export const BN: Messages = {
  language: "ভাষা",
  serviceName: "ডিজিটাল পণ্য পাসপোর্ট",
  footerTagline: "ইইউ ডিজিটাল পণ্য পাসপোর্ট · পাবলিক ব্লকচেইনে নিবন্ধিত",
  elsewhere: (brand) => `অন্যান্য জায়গায় ${brand}`,
  logoAlt: (brand) => `${brand}-এর লোগো`,
  website: "ওয়েবসাইট",

  verifiedOn: (network) => `✓ ${network}-এ যাচাইকৃত`,
  beingWritten: (network) => `সার্টিফিকেটটি ${network}-এ লেখা হচ্ছে; নিশ্চিত হলে এটি যাচাইকৃত দেখাবে।`,
  notYetCertified: "এখনও প্রত্যয়িত নয়",
  reportedStolen: (brand) => `এই পণ্যটি চুরি হয়েছে বলে জানানো হয়েছে। কেউ এটি আপনার কাছে বিক্রি করতে চাইলে ${brand}-এর সঙ্গে যোগাযোগ করুন।`,
  reportedLost: "এই পণ্যটি হারিয়ে গেছে বলে জানানো হয়েছে।",
  recovered: "এই পণ্যটি হারানো বা চুরি হয়েছে বলে জানানো হয়েছিল, পরে এটি উদ্ধার করা হয়েছে।",
  hashMismatch: "এখানে দেখানো পাসপোর্টের তথ্য ব্লকচেইনে প্রত্যয়িত তথ্যের সঙ্গে মেলে না।",
  carbonFootprint: "কার্বন ফুটপ্রিন্ট",
  ratingChip: (letter) => `রেটিং ${letter}`,
  carbonNote: (letter, bound) => `কাঁচামাল থেকে কারখানার গেট পর্যন্ত আনুমানিক ফুটপ্রিন্ট; রেটিং ${letter} মানে ${bound}।`,
  carbonLabels: { A: "কম প্রভাব", B: "মাঝারি", C: "বেশি", D: "খুব বেশি" },
  carbonBounds: {
    A: "সর্বোচ্চ 2 kg CO2e",
    B: "সর্বোচ্চ 5 kg CO2e",
    C: "সর্বোচ্চ 10 kg CO2e",
    D: "10 kg CO2e-এর বেশি",
  },
  fibreComposition: "তন্তুর গঠন",
  certifications: "সনদ",
  noCertifications: "এই পণ্যের কোনো সনদ ঘোষণা করা হয়নি।",
  certificationNumber: (number) => `নং ${number}`,
  validUntil: (date) => `মেয়াদ ${date} পর্যন্ত`,
  evidence: "প্রমাণ",
  manufacturer: "প্রস্তুতকারক",
  notDeclaredYet: "এখনও ঘোষণা করা হয়নি।",
  factory: "কারখানা",
  location: "অবস্থান",
  attribution: "সূত্র",
  confirmedByFactory: "কারখানা নিশ্চিত করেছে",
  declaredByBrand: "ব্র্যান্ডের ঘোষণা",
  registry: "নিবন্ধন",
  verifiedFactory: "✓ যাচাইকৃত কারখানা",
  notVerified: "যাচাই করা হয়নি",
  supplyChain: "সরবরাহ শৃঙ্খল",
  withheldForAuthorised: "সরবরাহ শৃঙ্খল ও পরীক্ষার কিছু তথ্য কেবল অনুমোদিত পাঠকদের জন্য।",
  transactionLink: "লেনদেন",
  stages: {
    fibre_sourced: "তন্তু সংগ্রহ",
    spun: "সুতা কাটা",
    woven_or_knitted: "বোনা বা নিটিং",
    dyed_or_printed: "রং করা বা ছাপা",
    cut: "কাটা",
    sewn: "সেলাই",
    finished: "ফিনিশিং",
    quality_checked: "মান পরীক্ষা",
    packed: "প্যাকিং",
    shipped: "চালান পাঠানো",
    received: "গ্রহণ",
    retail_ready: "বিক্রির জন্য প্রস্তুত",
  },
  careInstructions: "যত্নের নির্দেশনা",
  madeWhere: "কোথায় তৈরি",
  textileStages: {
    recycling: "পুনর্ব্যবহার",
    fibre: "তন্তু",
    spinning: "সুতা কাটা",
    weaving_knitting: "বোনা বা নিটিং",
    dyeing_printing_finishing: "রং, ছাপা ও ফিনিশিং",
    making_up: "কাটা ও সেলাই",
  },
  stageDates: (started, completed) =>
    started && completed ? `${started} থেকে ${completed}` : started ? `শুরু ${started}` : completed ? `শেষ ${completed}` : "",
  confirmedByFacility: (date) => (date ? `✓ কারখানা নিজে ${date}-এ নিশ্চিত করেছে` : "✓ কারখানা নিজে নিশ্চিত করেছে"),
  facilityIdSchemes: { gln: "GLN", osh: "Open Supply Hub", registry: "রেজিস্ট্রি আইডি" },
  materials: "উপাদান",
  materialOrigin: "উৎস",
  recycledShare: (percent, origin) => `${percent}% পুনর্ব্যবহৃত${origin ? ` (${origin})` : ""}`,
  recycledOrigins: { pre_consumer: "ব্যবহারের আগের বর্জ্য থেকে", post_consumer: "ব্যবহৃত পণ্য থেকে" },
  recycledTotal: (percent) => `পুনর্ব্যবহৃত উপাদান: ওজনের ${percent}%`,
  substancesOfConcern: "উদ্বেগজনক রাসায়নিক",
  substanceIds: (cas, ec) => [cas ? `CAS ${cas}` : "", ec ? `EC ${ec}` : ""].filter(Boolean).join(" · "),
  concentration: (percent) => `ওজনের ${percent}%`,
  concentrationLabel: "ঘনত্ব",
  whereInProduct: "কোথায়",
  safeUse: "নিরাপদ ব্যবহার",
  durability: "টেকসইতা",
  durabilityProperties: {
    pilling: "পিলিং (রোঁয়া ওঠা)",
    abrasion: "ঘর্ষণ সহনশীলতা",
    dimensional_change: "মাপের পরিবর্তন",
    colour_fastness_washing: "ধোয়ায় রঙের স্থায়িত্ব",
    colour_fastness_rubbing: "ঘষায় রঙের স্থায়িত্ব",
    colour_fastness_light: "আলোয় রঙের স্থায়িত্ব",
    colour_fastness_perspiration: "ঘামে রঙের স্থায়িত্ব",
    tensile_strength: "টান সহনশীলতা",
    tear_strength: "ছেঁড়া প্রতিরোধ",
    seam_slippage: "সেলাইয়ের সরে যাওয়া",
    appearance_after_washing: "ধোয়ার পরে চেহারা",
  },
  testedTo: (standard) => `${standard} অনুযায়ী পরীক্ষিত`,
  durabilityClass: (value) => `শ্রেণি ${value}`,
  careSymbols: {
    wash_95: "95 °C-এ ধুন",
    wash_70: "70 °C-এ ধুন",
    wash_60: "60 °C-এ ধুন",
    wash_60_mild: "60 °C-এ মৃদু ধোয়া",
    wash_50: "50 °C-এ ধুন",
    wash_50_mild: "50 °C-এ মৃদু ধোয়া",
    wash_40: "40 °C-এ ধুন",
    wash_40_mild: "40 °C-এ মৃদু ধোয়া",
    wash_40_very_mild: "40 °C-এ খুব মৃদু ধোয়া",
    wash_30: "30 °C-এ ধুন",
    wash_30_mild: "30 °C-এ মৃদু ধোয়া",
    wash_30_very_mild: "30 °C-এ খুব মৃদু ধোয়া",
    hand_wash: "হাতে ধুন",
    do_not_wash: "ধোবেন না",
    bleach_any: "যেকোনো ব্লিচ চলবে",
    bleach_oxygen_only: "শুধু অক্সিজেন ব্লিচ",
    do_not_bleach: "ব্লিচ করবেন না",
    tumble_dry_normal: "টাম্বল ড্রায়ার, সাধারণ তাপ",
    tumble_dry_low: "টাম্বল ড্রায়ার, কম তাপ",
    do_not_tumble_dry: "টাম্বল ড্রায়ারে শুকাবেন না",
    line_dry: "দড়িতে শুকান",
    line_dry_shade: "ছায়ায় দড়িতে শুকান",
    drip_line_dry: "না নিংড়ে দড়িতে শুকান",
    drip_line_dry_shade: "না নিংড়ে ছায়ায় দড়িতে শুকান",
    dry_flat: "বিছিয়ে শুকান",
    dry_flat_shade: "ছায়ায় বিছিয়ে শুকান",
    drip_dry_flat: "না নিংড়ে বিছিয়ে শুকান",
    drip_dry_flat_shade: "না নিংড়ে ছায়ায় বিছিয়ে শুকান",
    iron_high: "বেশি তাপে ইস্ত্রি (200 °C)",
    iron_medium: "মাঝারি তাপে ইস্ত্রি (150 °C)",
    iron_low: "কম তাপে ইস্ত্রি (110 °C), ভাপ নয়",
    do_not_iron: "ইস্ত্রি করবেন না",
    dry_clean_p: "ড্রাই ক্লিন (P)",
    dry_clean_p_mild: "ড্রাই ক্লিন (P), মৃদু",
    dry_clean_f: "শুধু হাইড্রোকার্বনে ড্রাই ক্লিন (F)",
    dry_clean_f_mild: "শুধু হাইড্রোকার্বনে ড্রাই ক্লিন (F), মৃদু",
    do_not_dry_clean: "ড্রাই ক্লিন করবেন না",
    wet_clean: "পেশাদার ওয়েট ক্লিন",
    wet_clean_mild: "পেশাদার ওয়েট ক্লিন, মৃদু",
    wet_clean_very_mild: "পেশাদার ওয়েট ক্লিন, খুব মৃদু",
    do_not_wet_clean: "ওয়েট ক্লিন করবেন না",
  },
  careSymbolsLabel: "যত্নের প্রতীক (ISO 3758)",
  repair: "মেরামত",
  spareParts: "খুচরা যন্ত্রাংশ",
  repairService: "মেরামত সেবা",
  endOfLife: "ব্যবহার শেষে",
  recyclability: "পুনর্ব্যবহারযোগ্যতা",
  takeBack: "ফেরত নেওয়া",
  takeBackLink: "কোথায় ফেরত দেবেন",
  productPhotos: "পণ্যের ছবি",
  productPhotoAlt: (name, n, total) => `${name}, ছবি ${n}/${total}`,
  productDetails: "পণ্যের বিবরণ",
  productionDate: "উৎপাদনের তারিখ",
  commodityCode: "পণ্য কোড",
  commodityCodes: (hs6, cn8) => [hs6 ? `HS ${hs6}` : "", cn8 ? `CN ${cn8}` : ""].filter(Boolean).join(" · "),
  carbonFromPefStudy: (reference) => `ব্র্যান্ডের PEF সমীক্ষা ${reference} থেকে`,
  carbonOurEstimate: "আমাদের অনুমান, পণ্যের ধরন ও কাপড় থেকে: এটি কোনো সনদপ্রাপ্ত লেবেল নয়।",
  carbonMethod: "পদ্ধতি",
  lineage: "মডেল ও ব্যাচ",
  model: "মডেল",
  batch: "ব্যাচ",
  linkedPassport: (uid) => `পাসপোর্ট ${uid}`,
  modelPassportCovers: "মডেল পাসপোর্ট: এই স্টাইলের প্রতিটি পণ্যের জন্য প্রযোজ্য।",
  batchPassportCovers: (lot) =>
    lot ? `ব্যাচ পাসপোর্ট: উৎপাদন লট ${lot}-এর প্রতিটি পণ্যের জন্য প্রযোজ্য।` : "ব্যাচ পাসপোর্ট: এই উৎপাদন লটের প্রতিটি পণ্যের জন্য প্রযোজ্য।",
  inheritedFrom: { model: "মডেল থেকে", batch: "ব্যাচ থেকে" },
  changedSince: "এরপর এর পাসপোর্ট বদলেছে",
  certificate: "সার্টিফিকেট",
  viewCertificate: "সার্টিফিকেট দেখুন",
  certificateStatus: "সার্টিফিকেটের অবস্থা",
  downloadPdf: "PDF ডাউনলোড করুন",
  passportUid: (uid) => `পাসপোর্ট ${uid}`,
  scanDescription: (verified, carbonLabel) =>
    `${verified ? "যাচাইকৃত" : "ডিজিটাল"} পণ্য পাসপোর্ট: কার্বন ফুটপ্রিন্ট (${carbonLabel}), উপকরণ, উৎস ও যত্ন।`,
  tagCheck: "ট্যাগ যাচাই",
  secureTag: "সুরক্ষিত ট্যাগ (NTAG 424 DNA): ব্র্যান্ডের চাবি ছাড়া এটি নকল করা যায় না।",
  tapWords: (verdict, brand) => {
    switch (verdict) {
      case "authentic":
        return {
          headline: "আসল ট্যাগ",
          detail: "এই পণ্যের জন্য তৈরি সুরক্ষিত NFC ট্যাগ দিয়ে এই পেজটি খোলা হয়েছে। ট্যাগটি প্রতিটি ট্যাপে নতুন কোড দিয়ে স্বাক্ষর করে, আর এই কোডটি এইমাত্র সঠিক পাওয়া গেছে।",
        };
      case "replayed":
        return {
          headline: "এই লিংকটি আগে ব্যবহার করা হয়েছে",
          detail:
            "সুরক্ষিত ট্যাগটি প্রতিটি ট্যাপে নতুন লিংক তৈরি করে, আর এই লিংকটি আগেই খোলা হয়েছে। পণ্যটি আপনার হাতে থাকলে আবার এর ট্যাগে ট্যাপ করুন: আপনাকে পাঠানো বা আগে সংরক্ষণ করা লিংক প্রমাণ করে না যে পণ্যটি আসল।",
        };
      case "invalid":
        return {
          headline: "এই ট্যাগটি যাচাই করা যায়নি",
          detail: `এই লিংকের কোড এই পণ্যের সুরক্ষিত ট্যাগের সঙ্গে মেলে না: ট্যাগ বা লিংকটি নকল বা বদলানো হতে পারে। শুধু বিশ্বস্ত বিক্রেতার কাছ থেকে কিনুন, অথবা ${brand}-কে জিজ্ঞেস করুন।`,
        };
      case "unknown_tag":
        return {
          headline: "অজানা ট্যাগ",
          detail: `এই লিংকে একটি ট্যাগ কোড আছে, কিন্তু এই পণ্যের জন্য কোনো সুরক্ষিত ট্যাগ নিবন্ধিত নেই, তাই এটি যাচাই করা যায় না। পণ্যটির সঙ্গে সুরক্ষিত ট্যাগ ছিল কি না, ${brand}-কে জিজ্ঞেস করুন।`,
        };
      case "not_bound":
        return {
          headline: "এই ট্যাগটি অন্য একটি পণ্যের",
          detail: `ট্যাগটি ${brand}-এর আসল ট্যাগগুলোর একটি, কিন্তু এটি অন্য একটি পণ্যের জন্য তৈরি। ট্যাগটি যে পণ্যের সঙ্গে এসেছিল, সেই পণ্যেই লাগানো আছে কি না দেখে নিন।`,
        };
      case "unverified":
        return { headline: "ট্যাগ যাচাই করা হয়নি", detail: "এই পেজটি সুরক্ষিত ট্যাগের কোড ছাড়া খোলা হয়েছে, তাই শুধু নিচের পাসপোর্টটি দেখানো হচ্ছে।" };
    }
  },

  machineReadable: "যন্ত্রে পাঠযোগ্য পাসপোর্ট",
  machineReadableIntro: "অ্যাপ, কাস্টমস ও রিসাইক্লারদের জন্য একই পাসপোর্ট উন্মুক্ত ফরম্যাটে:",
  credentialJwt: "UNTP ক্রেডেনশিয়াল (স্বাক্ষরিত, JWT)",
  credentialJson: "UNTP ক্রেডেনশিয়াল (JSON-LD)",
  catenaX: "Catena-X পাসপোর্ট (JSON)",
  digitalLink: "GS1 ডিজিটাল লিংক",

  certificateOfAuthenticity: "সত্যতার সার্টিফিকেট",
  brand: "ব্র্যান্ড",
  category: "শ্রেণি",
  sku: "SKU",
  passport: "পাসপোর্ট",
  onChainRecord: "ব্লকচেইনের রেকর্ড",
  status: "অবস্থা",
  issuedWaiting: "ইস্যু হয়েছে, নিশ্চিতকরণের অপেক্ষায়",
  tokenId: "টোকেন আইডি",
  contract: "কন্ট্র্যাক্ট",
  network: "নেটওয়ার্ক",
  networkWithChainId: (network, chainId) => `${network} (চেইন আইডি ${chainId})`,
  transaction: "লেনদেন",
  issued: "ইস্যুর সময়",
  dataHashChain: "ডেটা হ্যাশ (চেইন)",
  computedHash: "হিসাব করা হ্যাশ",
  hashes: "হ্যাশ",
  notIndexedYet: "এখনও ইনডেক্স হয়নি",
  hashesMatch: "✓ মিলেছে",
  hashesDiffer: "✗ মেলেনি: প্রত্যয়নের পরে তথ্য বদলানো হয়েছে",
  shareCertificate: "এই সার্টিফিকেট শেয়ার করুন",
  qrLabel: "এই সার্টিফিকেটের ঠিকানার QR কোড",
  downloadCertificatePdf: "সার্টিফিকেট ডাউনলোড করুন (PDF)",
  pdfOnceMinted: "পাসপোর্ট মিন্ট হলে PDF পাওয়া যাবে।",
  howToVerify: "নিজে কীভাবে যাচাই করবেন",
  verifySteps: (p) => [
    html`পাসপোর্টের রেকর্ড ডাউনলোড করুন: ${p.dppLink}।`,
    html`এর <code>content</code> অংশটি ক্যানোনিকাল JSON (RFC 8785) হিসেবে সাজান এবং UTF-8 বাইটগুলোর keccak256 হ্যাশ বের করুন।`,
    html`টোকেন আইডি হিসাব করুন: <code>tokenId = keccak256(utf8("${p.uid}"))</code>, uint256 হিসেবে (= ${p.tokenId})।`,
    html`যেকোনো RPC নোড বা ব্লক এক্সপ্লোরার দিয়ে ${p.network}-এ কন্ট্র্যাক্ট ${p.contract}-এর <code>dataHashOf(tokenId)</code> কল করুন।`,
    html`দুটি হ্যাশ মিলে গেলে পাসপোর্টটি আসল। ওপরের লেনদেনটি দেখায় কখন এবং কে এটি ব্লকচেইনে নিবন্ধন করেছে।`,
  ],
  certificateNotIssued: "সার্টিফিকেট এখনও ইস্যু হয়নি",
  notIssuedText: (brand, network) => `এই পণ্যের পাসপোর্ট আছে, কিন্তু ${brand} এখনও ${network}-এ এর সার্টিফিকেট ইস্যু করেনি। পরে আবার দেখুন।`,
  certificateTitle: (product, brand) => `সত্যতার সার্টিফিকেট · ${product} · ${brand}`,
  certificateDescription: (product, brand) => `${brand}-এর ${product}: ব্লকচেইন সার্টিফিকেট।`,
  certificatePendingDescription: (product, brand) => `${brand}-এর ${product}: সার্টিফিকেট এখনও ইস্যু হয়নি।`,

  about: "পরিচিতি",
  findUs: "আমাদের খুঁজে পাবেন",
  passports: "পাসপোর্ট",
  productsCount: "পণ্য",
  certifiedOnChain: "ব্লকচেইনে প্রত্যয়িত",
  latestCertified: "সর্বশেষ প্রত্যয়িত পণ্য",
  noCertifiedYet: "এখনও কোনো প্রত্যয়িত পণ্য নেই।",
  carbonSummary: (letter, label, kg) => `কার্বন ${letter} (${label}, ${kg})`,
  brandDescription: (brand) => `${brand}: ইইউ ডিজিটাল পণ্য পাসপোর্টসহ পণ্য।`,

  buy: "কিনুন",
  pricePrefix: "দাম: ",
  payNeedsScript: "এখানে পরিশোধ করতে JavaScript লাগবে। এটি চালু করুন, অথবা দোকানে পরিশোধ করুন।",
  chooseHowToPay: "কীভাবে পরিশোধ করবেন, বেছে নিন:",
  methodNames: { bkash: "bKash", nagad: "Nagad", sslcommerz: "কার্ড (SSLCommerz)", cash_qr: "ক্যাশ কাউন্টারে নগদ" },
  payAtTill: "ক্যাশ কাউন্টারে পরিশোধ করুন",
  cashierQrAlt: "ক্যাশিয়ারের স্ক্যান করার QR কোড",
  showCashier: "এটি ক্যাশিয়ারকে দেখান।",
  cashierScans: "ক্যাশিয়ার এটি স্ক্যান করে আপনার পেমেন্ট নিশ্চিত করবেন। এই পেজটি খোলা রাখুন।",
  yourOrderPage: "আপনার অর্ডারের পেজ",
  order: "অর্ডার",
  yourOrder: "আপনার অর্ডার",
  orderNeedsScript: "আপনার অর্ডার দেখাতে এই পেজে JavaScript লাগবে: অর্ডারের চাবি আপনার ব্রাউজারেই থাকে, কোনো লিংকের ঠিকানায় কখনো যায় না।",
  loadingOrder: "আপনার অর্ডার লোড হচ্ছে…",
  backToProduct: "পণ্যে ফিরে যান",
  receipt: "রসিদ",
  product: "পণ্য",
  amount: "মোট",
  paidWith: "পরিশোধের মাধ্যম",
  paid: "পরিশোধের সময়",
  confirmed: "নিশ্চিত হয়েছে",
  keepReceipt: "এই পেমেন্ট নিয়ে দোকানে কিছু জিজ্ঞেস করতে হলে কাজে লাগবে, তাই পেজটি রেখে দিন বা অর্ডার নম্বরটি লিখে রাখুন।",
  beingConfirmedWithProvider: "পেমেন্ট সেবাদাতার সঙ্গে নিশ্চিত করা হচ্ছে…",

  orderStates: {
    created: "শুরু হয়েছে",
    pending: "পেমেন্টের অপেক্ষায়",
    paid: "পরিশোধিত, নিশ্চিত করা হচ্ছে",
    verified: "পরিশোধিত",
    failed: "পেমেন্ট ব্যর্থ হয়েছে",
    cancelled: "বাতিল",
    expired: "মেয়াদ শেষ",
    refund_pending: "টাকা ফেরত দেওয়া হচ্ছে",
    refund_unknown: "টাকা ফেরত নিশ্চিত করা হচ্ছে",
    refunded: "টাকা ফেরত দেওয়া হয়েছে",
  },
  orderMessage: (state, gateway, cash) => {
    switch (state) {
      case "created":
        return "আপনার অর্ডার তৈরি হচ্ছে।";
      case "pending":
        return cash ? "পরিশোধ করতে QR কোডটি ক্যাশিয়ারকে দেখান।" : `${gateway}-এ আপনার পেমেন্টের অপেক্ষায় আছি।`;
      case "paid":
        return `পেমেন্ট পাওয়া গেছে। আমরা ${gateway}-এর সঙ্গে এটি নিশ্চিত করছি।`;
      case "verified":
        return "পেমেন্ট পাওয়া গেছে। ধন্যবাদ।";
      case "failed":
        return "পেমেন্ট সম্পন্ন হয়নি। আপনি আবার চেষ্টা করতে পারেন।";
      case "cancelled":
        return "পেমেন্ট বাতিল করা হয়েছে।";
      case "expired":
        return "পরিশোধের আগেই এই অর্ডারের মেয়াদ শেষ হয়ে গেছে। কোনো টাকা কাটা হয়নি; আপনি নতুন অর্ডার দিতে পারেন।";
      case "refund_pending":
        return "আপনার টাকা ফেরত দেওয়া হচ্ছে।";
      case "refund_unknown":
        return `টাকা ফেরতের অনুরোধ করা হয়েছে; দোকান ${gateway}-এর সঙ্গে এটি নিশ্চিত করছে।`;
      case "refunded":
        return "আপনার টাকা ফেরত দেওয়া হয়েছে।";
      default:
        return "";
    }
  },
  paymentReceived: "✓ পেমেন্ট পাওয়া গেছে। ধন্যবাদ।",
  waitingForCashier: "ক্যাশিয়ারের নিশ্চিত করার অপেক্ষায়…",
  placingOrder: "আপনার অর্ডার দেওয়া হচ্ছে…",
  takingYouTo: (method) => `${method}-এ নিয়ে যাওয়া হচ্ছে…`,
  shopUnreachable: "দোকানের সঙ্গে যোগাযোগ করা যায়নি। আপনার ইন্টারনেট সংযোগ দেখে আবার চেষ্টা করুন।",
  tooManyAttempts: "আপনার সংযোগ থেকে অনেকবার চেষ্টা করা হয়েছে। এক মিনিট অপেক্ষা করে আবার চেষ্টা করুন।",
  notOnSale: "এই পণ্যটি এখন এখানে বিক্রি হচ্ছে না।",
  methodUnavailable: (method) => `এই পণ্যের জন্য ${method} এখন পাওয়া যাচ্ছে না। অন্যভাবে পরিশোধ করুন।`,
  gatewayUnavailable: (method) => `${method}-এর সঙ্গে যোগাযোগ করা যায়নি, তাই কোনো টাকা কাটা হয়নি। একটু পরে আবার চেষ্টা করুন, অথবা অন্যভাবে পরিশোধ করুন।`,
  productGone: "এই পণ্যটি আর এখানে কেনা যায় না।",
  orderRefused: "অর্ডারটি দেওয়া যায়নি: দোকান এটি গ্রহণ করেনি।",
  orderFailed: (reference) => `অর্ডারটি দেওয়া যায়নি। একটু পরে আবার চেষ্টা করুন (রেফারেন্স ${reference})।`,
  orderFailedNoReference: "অর্ডারটি দেওয়া যায়নি। একটু পরে আবার চেষ্টা করুন।",
  noNextStep: "অর্ডারটি দেওয়া হয়েছে, কিন্তু দোকান কীভাবে পরিশোধ করতে হবে তা জানায়নি। দেখতে আপনার অর্ডারের পেজ খুলুন।",
  noSuchOrder: "এই পেজ ও এর চাবির সঙ্গে কোনো অর্ডার মেলেনি। পেমেন্ট পেজ আপনাকে যে লিংক দিয়ে ফেরত পাঠিয়েছে সেটি খুলুন, অথবা দোকানকে জিজ্ঞেস করুন।",
  busyConnection: "এই সংযোগ থেকে অনেক ক্রেতা তাঁদের অর্ডার দেখছেন; এক মিনিট পরে আবার দেখা হবে…",
  connectionLost: "দোকানের সঙ্গে সংযোগ বিচ্ছিন্ন হয়েছে; চেষ্টা চলছে…",
  shopBusy: "দোকান এই মুহূর্তে উত্তর দিতে পারেনি; চেষ্টা চলছে…",
  stoppedChecking: "30 মিনিট পরে এই পেজ আর খোঁজ নিচ্ছে না; অর্ডারটি কোন অবস্থায় আছে জানতে পেজটি আবার লোড করুন।",
  noKey: (orderId) =>
    `এই ব্রাউজারে এই অর্ডারের চাবি নেই, তাই এর বিস্তারিত দেখানো যাচ্ছে না। যে ব্রাউজারে পরিশোধ করেছেন, সেখানে পেমেন্ট পেজ আপনাকে যে লিংক দিয়ে ফেরত পাঠিয়েছে সেটি খুলুন, অথবা দোকানকে অর্ডার ${orderId} সম্পর্কে জিজ্ঞেস করুন।`,

  pdfTitle: "ডিজিটাল পণ্য পাসপোর্ট — সত্যতার সার্টিফিকেট",
  pdfProduct: "পণ্য",
  pdfUid: "UID",
  pdfIssuedUtc: "ইস্যুর সময় (UTC)",
  pdfScanToOpen: "পাসপোর্ট খুলতে স্ক্যান করুন",
  pdfBlockchainRecord: "ব্লকচেইনের রেকর্ড",
  pdfTokenId: "টোকেন আইডি",
  pdfDataHash: "ডেটা হ্যাশ",
  pdfExplorer: "এক্সপ্লোরার",
  pdfHowToVerify: "কীভাবে যাচাই করবেন",
  pdfCarbon: (kg, rating) => `${kg}, রেটিং ${rating}`,
  pdfCovers: "আওতা",
  pdfTextile: "বস্ত্র পাসপোর্ট",
  pdfTextileFollows: "কোথায় তৈরি, উপাদান, রাসায়নিক, টেকসইতা, যত্ন, মেরামত ও কার্বন: পরের পৃষ্ঠাগুলোতে",
  pdfTextileContinued: (uid) => `${uid}-এর বস্ত্র পাসপোর্ট (চলমান)`,
  pdfLineage: (granularity, links) =>
    [
      granularity === "model"
        ? "এই স্টাইলের প্রতিটি পণ্য (মডেল পাসপোর্ট)"
        : granularity === "batch"
          ? `${links.lot ? `লট ${links.lot}-এর` : "এই লটের"} প্রতিটি পণ্য (ব্যাচ পাসপোর্ট)`
          : "এই পণ্যটি",
      ...(links.model ? [`মডেল পাসপোর্ট ${links.model}`] : []),
      ...(links.batch ? [`ব্যাচ পাসপোর্ট ${links.batch}`] : []),
    ].join(" · "),
  pdfNotKnown: "জানা নেই",
  pdfRecordOnIssuer: (path) => `এই সার্টিফিকেট যে সার্ভিস ইস্যু করেছে, তার ${path}`,
  pdfVerifyText: (dppPath, contract, network, chainId) =>
    `${dppPath} থেকে পাসপোর্টের পাবলিক রেকর্ড নিন এবং এর "content" অংশটি নিন। ` +
    "এটিকে ক্যানোনিকাল JSON (RFC 8785) হিসেবে সাজিয়ে UTF-8-এ এনকোড করুন এবং keccak256 হ্যাশ বের করুন। " +
    "ফলাফলটি ওপরের ডেটা হ্যাশের সমান হতে হবে, এবং এই টোকেন আইডির জন্য " +
    `${network}-এ (চেইন আইডি ${chainId}) কন্ট্র্যাক্ট ${contract}-এ সংরক্ষিত ডেটা হ্যাশের সঙ্গেও মিলতে হবে; ` +
    "ওপরের লেনদেনটিই এটি নিবন্ধন করেছে। পাসপোর্টের তথ্যে যেকোনো পরিবর্তন হ্যাশ বদলে দেয়।",
  pdfFooter: (producer, brand, issuedAt) =>
    `${producer} ${brand}-এর জন্য ${issuedAt} তারিখে এটি ইস্যু করেছে। ব্লকচেইনের রেকর্ডই চূড়ান্ত; এই নথি তার একটি অনুলিপি।`,
};
