// The registry's own words inside a passport, in the page's language: category names, EU fibre names and the
// built-in care text of a category. English is the passport's own words, as anchored; a word or a text the brand
// wrote itself stays the brand's.
import type { PassportContent } from "../passports/content";
import type { FibreName } from "../passports/fibres";
import { canonicalCategory, CARE_BY_CATEGORY, GARMENT_CARE, normaliseCategory } from "../products/defaults";
import type { Lang } from "./languages";

/** Bengali names of the categories the registry knows (carbon weights, care texts) and of the words brands use for them. */
const BN_CATEGORIES: Readonly<Record<string, string>> = {
  "t-shirt": "টি-শার্ট",
  tee: "টি-শার্ট",
  shirt: "শার্ট",
  polo: "পোলো শার্ট",
  saree: "শাড়ি",
  sari: "শাড়ি",
  dress: "পোশাক",
  jeans: "জিন্স",
  denim: "ডেনিম",
  trousers: "প্যান্ট",
  pants: "প্যান্ট",
  chinos: "চিনো প্যান্ট",
  sweater: "সোয়েটার",
  jumper: "সোয়েটার",
  pullover: "পুলওভার",
  cardigan: "কার্ডিগান",
  hoodie: "হুডি",
  knitwear: "বোনা পোশাক",
  jacket: "জ্যাকেট",
  coat: "কোট",
  outerwear: "বাইরের পোশাক",
  sportswear: "খেলাধুলার পোশাক",
  underwear: "অন্তর্বাস",
  socks: "মোজা",
  scarf: "স্কার্ফ",
  hijab: "হিজাব",
  shawl: "শাল",
  kidswear: "শিশুদের পোশাক",
  workwear: "কাজের পোশাক",
  towel: "তোয়ালে",
  "home-textile": "ঘরের বস্ত্র",
  footwear: "জুতা",
  shoes: "জুতা",
  electronics: "ইলেকট্রনিকস",
  accessories: "অনুষঙ্গ",
};

/** Bengali names of the fibres of Regulation (EU) No 1007/2011, Annex I (the type makes a missing one an error). */
const BN_FIBRES: Readonly<Record<FibreName, string>> = {
  wool: "উল",
  alpaca: "আলপাকা",
  llama: "লামা",
  camel: "উটের লোম",
  cashmere: "কাশ্মীরি উল",
  mohair: "মোহেয়ার",
  angora: "অ্যাঙ্গোরা",
  vicuna: "ভিকুনা",
  yak: "ইয়াকের লোম",
  guanaco: "গুয়ানাকো",
  cashgora: "ক্যাশগোরা",
  beaver: "বিভারের লোম",
  otter: "ভোঁদড়ের লোম",
  silk: "রেশম",
  cotton: "তুলা",
  kapok: "কাপোক",
  flax: "তিসির আঁশ",
  linen: "লিনেন",
  hemp: "হেম্প",
  jute: "পাট",
  abaca: "আবাকা",
  alfa: "আলফা ঘাস",
  coir: "নারকেলের ছোবড়া",
  broom: "ব্রুম",
  ramie: "রেমি",
  sisal: "সিসাল",
  sunn: "শণ",
  henequen: "হেনেকেন",
  maguey: "মাগুয়ে",
  acetate: "অ্যাসিটেট",
  alginate: "অ্যালজিনেট",
  cupro: "কুপ্রো",
  modal: "মোডাল",
  protein: "প্রোটিন তন্তু",
  triacetate: "ট্রাইঅ্যাসিটেট",
  viscose: "ভিসকস",
  lyocell: "লায়োসেল",
  acrylic: "অ্যাক্রিলিক",
  chlorofibre: "ক্লোরোফাইবার",
  fluorofibre: "ফ্লুরোফাইবার",
  modacrylic: "মোডাক্রিলিক",
  polyamide: "পলিঅ্যামাইড",
  nylon: "নাইলন",
  aramid: "অ্যারামিড",
  polyimide: "পলিইমাইড",
  polyester: "পলিয়েস্টার",
  polyethylene: "পলিইথিলিন",
  polypropylene: "পলিপ্রোপিলিন",
  polycarbamide: "পলিকার্বামাইড",
  polyurethane: "পলিইউরেথেন",
  vinylal: "ভিনাইলাল",
  trivinyl: "ট্রাইভিনাইল",
  elastodiene: "ইলাস্টোডাইন",
  elastane: "ইলাস্টেন",
  "glass fibre": "কাচতন্তু",
  elastomultiester: "ইলাস্টোমাল্টিএস্টার",
  elastolefin: "ইলাস্টোলেফিন",
  melamine: "মেলামাইন",
  "polypropylene/polyamide bicomponent": "পলিপ্রোপিলিন/পলিঅ্যামাইড দ্বি-উপাদান তন্তু",
  polyacrylate: "পলিঅ্যাক্রিলেট",
  polylactide: "পলিল্যাকটাইড",
  "other fibres": "অন্যান্য তন্তু",
};

/** The key of the garment care text every category without one of its own gets. */
const ANY_GARMENT = "*";

/** Bengali of the built-in care texts (products/defaults.ts), by category; ANY_GARMENT for GARMENT_CARE. */
const BN_CARE: Readonly<Record<string, string>> = {
  [ANY_GARMENT]: "পোশাকে সেলাই করা যত্নের লেবেল মেনে চলুন। একই রঙের কাপড়ের সঙ্গে ধুয়ে নিন; ব্লিচ করবেন না; লেবেলে অনুমতি না থাকলে টাম্বল ড্রায়ারে শুকাবেন না।",
  shirt: "একই রঙের কাপড়ের সঙ্গে 30 °C-এ মেশিনে ধুয়ে নিন। ব্লিচ করবেন না। টাম্বল ড্রায়ারে শুকাবেন না। মাঝারি তাপে ইস্ত্রি করুন।",
  "t-shirt": "উল্টো করে একই রঙের কাপড়ের সঙ্গে 30 °C-এ মেশিনে ধুয়ে নিন। ব্লিচ করবেন না। কম তাপে টাম্বল ড্রায়ারে শুকান। কম তাপে ইস্ত্রি করুন, ছাপার ওপর নয়।",
  polo: "একই রঙের কাপড়ের সঙ্গে 30 °C-এ মেশিনে ধুয়ে নিন। ব্লিচ করবেন না। কম তাপে টাম্বল ড্রায়ারে শুকান। কম তাপে ইস্ত্রি করুন।",
  saree: "ড্রাই ক্লিন করুন, অথবা আলাদাভাবে ঠান্ডা পানিতে মৃদু ডিটারজেন্ট দিয়ে হাতে ধুয়ে নিন। মোচড়াবেন না; ছায়ায় শুকান। উল্টো পিঠে কম তাপে ইস্ত্রি করুন।",
  jeans: "উল্টো করে গাঢ় রঙের কাপড়ের সঙ্গে 30 °C-এ ধুয়ে নিন; প্রথম কয়েকবার রং উঠতে পারে। ব্লিচ করবেন না। দড়িতে শুকান। মাঝারি তাপে ইস্ত্রি করুন।",
  knitwear: "ঠান্ডা পানিতে হাতে ধুয়ে নিন, অথবা 30 °C-এ উলের সাইকেলে ধুয়ে নিন। মোচড়াবেন না বা টাম্বল ড্রায়ারে শুকাবেন না; আকৃতি ঠিক রেখে বিছিয়ে শুকান। প্রয়োজনে কম তাপে ইস্ত্রি করুন।",
  dress: "একই রঙের কাপড়ের সঙ্গে 30 °C-এ মৃদু সাইকেলে মেশিনে ধুয়ে নিন। ব্লিচ করবেন না। দড়িতে শুকান। কম থেকে মাঝারি তাপে ইস্ত্রি করুন।",
  trousers: "উল্টো করে একই রঙের কাপড়ের সঙ্গে 30 °C-এ মেশিনে ধুয়ে নিন। ব্লিচ করবেন না। দড়িতে শুকান। মাঝারি তাপে ইস্ত্রি করুন।",
  jacket: "লেবেল মেনে চলুন: ড্রাই ক্লিন করুন, অথবা চেন ও বোতাম আটকে উল্টো করে 30 °C-এ মৃদু সাইকেলে ধুয়ে নিন। ব্লিচ করবেন না। দড়িতে শুকান।",
  sportswear: "উল্টো করে 30 °C-এ মেশিনে ধুয়ে নিন। ফ্যাব্রিক সফটনার দেবেন না। ব্লিচ করবেন না। টাম্বল ড্রায়ারে শুকাবেন না বা ইস্ত্রি করবেন না।",
  underwear: "একই রঙের কাপড়ের সঙ্গে 40 °C-এ মেশিনে ধুয়ে নিন। ব্লিচ করবেন না। দড়িতে শুকান।",
  socks: "উল্টো করে একই রঙের কাপড়ের সঙ্গে 40 °C-এ মেশিনে ধুয়ে নিন। ব্লিচ করবেন না। ইস্ত্রি করবেন না।",
  scarf: "ঠান্ডা পানিতে মৃদু ডিটারজেন্ট দিয়ে হাতে ধুয়ে নিন। মোচড়াবেন না; ছায়ায় বিছিয়ে শুকান। কম তাপে ইস্ত্রি করুন।",
  towel: "60 °C-এ মেশিনে ধুয়ে নিন। ফ্যাব্রিক সফটনার ব্যবহার করবেন না। মাঝারি তাপে টাম্বল ড্রায়ারে শুকান।",
  footwear: "ভেজা কাপড় দিয়ে মুছে পরিষ্কার করুন। সরাসরি তাপ থেকে দূরে বাতাসে শুকান। মেশিনে ধোবেন না।",
  electronics: "শুকনো ও তাপ থেকে দূরে রাখুন। শুকনো কাপড় দিয়ে পরিষ্কার করুন। গৃহস্থালির বর্জ্যের সঙ্গে ফেলবেন না: ইলেকট্রনিক বর্জ্য সংগ্রহকেন্দ্রে জমা দিন।",
  accessories: "ভেজা কাপড় দিয়ে মুছে পরিষ্কার করুন। তাপ ও আর্দ্রতা থেকে দূরে রাখুন।",
};

/** The tables of each language but English (the passport's own words). */
const CATEGORIES: Partial<Record<Lang, Readonly<Record<string, string>>>> = { bn: BN_CATEGORIES };
const FIBRES: Partial<Record<Lang, Readonly<Record<FibreName, string>>>> = { bn: BN_FIBRES };
const CARE: Partial<Record<Lang, Readonly<Record<string, string>>>> = { bn: BN_CARE };

/** "t-shirt" in the page's language: a category the registry knows by the brand's word or its canonical one, else the brand's word. */
export function categoryName(category: string, lang: Lang): string {
  const names = CATEGORIES[lang];
  return names?.[normaliseCategory(category)] ?? names?.[canonicalCategory(category)] ?? category;
}

/** "cotton" in the page's language: an EU fibre name is translated, a fibre the brand named otherwise stays its word. */
export function fibreName(fiber: string, lang: Lang): string {
  return FIBRES[lang]?.[fiber.trim().toLowerCase() as FibreName] ?? fiber;
}

/**
 * The care text in the page's language: the registry's built-in text for the category (provenance says so, and the
 * anchored text is that text, word for word) is translated; the brand's own or its default stays as the brand wrote it.
 */
export function careText(content: Pick<PassportContent, "care_instructions" | "provenance" | "product">, lang: Lang): string {
  const text = content.care_instructions;
  const care = CARE[lang];
  if (!care || content.provenance?.care_instructions !== "category_default") return text;
  const category = canonicalCategory(content.product.category);
  const key = CARE_BY_CATEGORY[category] === text ? category : text === GARMENT_CARE ? ANY_GARMENT : undefined;
  return (key !== undefined && care[key]) || text;
}
