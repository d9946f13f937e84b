// Bengali RFQs for the local reader: Bengali digits become ASCII digits and the words that carry an RFQ's meaning
// (products, units, countries, ports, months, "required", "preferred") become their English glosses, in place, so the
// English reader reads the rest. Other Bengali words are dropped. Case endings ("দিনের", "ভারতে", "জার্মানির") are
// taken off a known word; a word the glossary does not know is never cut.

const DIGITS = "০১২৩৪৫৬৭৮৯";

/** Bengali word or phrase → English gloss. Keys in NFC; a phrase is matched before the words in it. */
const GLOSSARY: Record<string, string> = {
  // numbers and units
  "এক": "1", "দুই": "2", "দু": "2", "তিন": "3", "চার": "4", "পাঁচ": "5", "ছয়": "6", "সাত": "7", "আট": "8", "নয়": "9", "দশ": "10",
  "হাজার": "thousand", "লাখ": "lakh", "লক্ষ": "lakh", "পিস": "pcs", "পিচ": "pcs", "ডজন": "dozen", "ইউনিট": "units", "জোড়া": "pairs",
  "মিটার": "meters", "গজ": "yards",
  "দিন": "days", "সপ্তাহ": "weeks", "মাস": "months", "মধ্যে": "within",
  // months
  "জানুয়ারি": "january", "ফেব্রুয়ারি": "february", "মার্চ": "march", "এপ্রিল": "april", "মে": "may", "জুন": "june", "জুলাই": "july",
  "আগস্ট": "august", "সেপ্টেম্বর": "september", "অক্টোবর": "october", "নভেম্বর": "november", "ডিসেম্বর": "december",
  // products
  "টি-শার্ট": "t-shirts", "টিশার্ট": "t-shirts", "টি শার্ট": "t-shirts", "পোলো শার্ট": "polo shirts", "পোলো": "polos", "শার্ট": "shirts",
  "জিন্স প্যান্ট": "jeans", "জিন্স": "jeans", "প্যান্ট": "trousers", "ট্রাউজার": "trousers", "ডেনিম": "denim", "সোয়েটার": "sweaters",
  "কার্ডিগান": "cardigans", "হুডি": "hoodies", "সোয়েটশার্ট": "sweatshirts", "জ্যাকেট": "jackets", "কোট": "coats", "তোয়ালে": "towels",
  "মোজা": "socks", "অন্তর্বাস": "underwear", "আন্ডারওয়্যার": "underwear", "লেগিংস": "leggings", "স্পোর্টসওয়্যার": "sportswear",
  "বাচ্চা": "kids", "শিশু": "kids", "বেবি": "baby", "পোশাক": "clothing", "কাপড়": "fabric", "ফ্যাব্রিক": "fabric", "সুতা": "yarn", "সুতো": "yarn",
  "ইউনিফর্ম": "uniforms", "ওয়ার্কওয়্যার": "workwear", "কভারঅল": "coveralls", "স্কার্ফ": "scarves", "ওড়না": "scarves", "বিছানার চাদর": "bedsheets",
  "জামা": "dresses", "শাড়ি": "saree", "প্যাডেড": "padded", "অর্গানিক": "organic", "তুলা": "cotton", "কটন": "cotton",
  // countries, ports, cities
  "বাংলাদেশ": "bangladesh", "ভারত": "india", "ভিয়েতনাম": "vietnam", "তুরস্ক": "turkey", "পর্তুগাল": "portugal", "চীন": "china",
  "পাকিস্তান": "pakistan", "শ্রীলঙ্কা": "sri lanka", "কম্বোডিয়া": "cambodia", "মরক্কো": "morocco", "জার্মানি": "germany",
  "যুক্তরাজ্য": "united kingdom", "ইংল্যান্ড": "england", "যুক্তরাষ্ট্র": "united states", "আমেরিকা": "america", "নেদারল্যান্ডস": "netherlands",
  "ফ্রান্স": "france", "ইতালি": "italy", "স্পেন": "spain", "জাপান": "japan", "কানাডা": "canada", "অস্ট্রেলিয়া": "australia", "সুইডেন": "sweden",
  "ডেনমার্ক": "denmark", "বেলজিয়াম": "belgium", "দুবাই": "dubai", "ঢাকা": "dhaka", "চট্টগ্রাম": "chittagong", "মোংলা": "mongla",
  "গাজীপুর": "gazipur", "নারায়ণগঞ্জ": "narayanganj", "সাভার": "savar", "হামবুর্গ": "hamburg", "রটারডাম": "rotterdam", "অ্যান্টওয়ার্প": "antwerp",
  "লন্ডন": "london", "বন্দর": "port",
  // what is asked, and how firmly
  "লাগবে না": "not required", "প্রয়োজন নেই": "not required", "দরকার নেই": "not required", "লাগবে": "required", "প্রয়োজন": "required",
  "দরকার": "need", "আবশ্যক": "required", "বাধ্যতামূলক": "required", "অবশ্যই": "must", "থাকলে ভালো": "preferred", "হলে ভালো": "preferred",
  "ভালো হয়": "preferred", "পছন্দনীয়": "preferred", "অগ্রাধিকার": "preferred", "সম্ভব হলে": "if possible", "চাই": "want",
  "সার্টিফিকেট": "certification", "সার্টিফিকেশন": "certification", "সনদ": "certification", "দুটোই": "both",
  "বা": "or", "অথবা": "or", "এবং": "and", "ও": "and", "আর": "and", "না": "not", "ছাড়া": "without", "থেকে": "from", "তৈরি": "made",
  // who asks, when and where
  "আমরা": "we", "আমাদের": "our", "আমি": "i", "একটি": "a", "ছোট": "small", "ব্র্যান্ড": "brand", "কোম্পানি": "company", "দোকান": "shop",
  "ফ্যাশন": "fashion", "ক্রেতা": "buyer", "ডেলিভারি": "delivery", "শিপমেন্ট": "shipment", "লিড টাইম": "lead time", "পরিমাণ": "quantity",
  "পণ্য": "product", "দেশ": "country", "পিও": "po", "অর্ডার": "order", "তারিখ": "date",
};

/** Case endings, longest first; taken off only when what is left is in the glossary. */
const ENDINGS = ["গুলোর", "গুলো", "গুলি", "দের", "য়ের", "য়ে", "েরই", "ের", "তে", "টি", "টা", "র", "ে", "য়", "ই"].map((e) => e.normalize("NFC"));

const LETTER = "[\\u0980-\\u09FF]";
const ENTRIES = Object.entries(GLOSSARY).map(([word, gloss]) => [word.normalize("NFC"), gloss] as const);
const GLOSS = new Map(ENTRIES);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// Longest first, so a phrase wins over its words; short words take no ending ("বা" is "or", "বার" is not).
const PHRASE = new RegExp(
  `(?<!${LETTER})(${ENTRIES.map(([word]) => word)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|")})((?:${ENDINGS.map(escape).join("|")})?)(?!${LETTER})`,
  "gu",
);

export function hasBengali(text: string): boolean {
  return /[\u0980-\u09FF]/u.test(text);
}

/** The text with Bengali digits in ASCII and known Bengali words in English; unknown Bengali words become spaces. */
export function glossBengali(text: string): string {
  if (!hasBengali(text)) return text;
  const digits = text.normalize("NFC").replace(/[\u09E6-\u09EF]/gu, (digit) => String(DIGITS.indexOf(digit))).replace(/।/gu, ".");
  const glossed = digits.replace(PHRASE, (whole, word: string, ending: string) =>
    ending && [...word].length <= 2 ? whole : ` ${GLOSS.get(word)!} `,
  );
  return glossed.replace(new RegExp(`${LETTER}+`, "gu"), " ");
}
