// The longest lead time an RFQ accepts, in days, read from the text the local reader normalized: a duration
// ("within 45 days", "(…, 45 days)", "10 weeks after PO", "6-8 weeks") or a delivery date ("by 15 April 2026",
// "in-store 30 June", "ETD 2026-03-20", "end of May"), counted from `today`. The first one in the text wins;
// durations about something else (payment terms, a quote's validity, samples) are not lead times, unless a lead-time
// word stands nearer ("payment 90 days LC, delivery 60 days"; "please quote lead time, max. 100 days").

export const MAX_LEAD_TIME_DAYS = 730;

const DAY_MS = 86_400_000;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH = String.raw`(jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)`;

const DURATION = /(?<![\d.])(\d{1,3})(?: (?:to )?(\d{1,3}))? ?(days?|d|weeks?|wks?|w|months?)(?![a-z0-9])/g;
/** A duration after one of these words is not a lead time: "net 60 days", "quote valid 30 days", "samples in 10 days". */
const NOT_LEAD_BEFORE = new Set([
  "net", "payment", "payments", "credit", "lc", "usance", "valid", "validity", "quote", "quotation", "sample", "samples", "proto",
  "prototype", "prototypes", "reply", "respond", "answer", "warranty", "return", "returns", "trial", "invoice",
]);
const NOT_LEAD_AFTER = /^(?:payment|payments|credit|net|validity|warranty|after invoice|from invoice)(?: |$)/;
/** Words that make the duration after them a lead time again, read nearest first: "payment 90 days LC, delivery 60 days". */
const LEAD_CUES = new Set(["delivery", "deliver", "delivered", "lead", "ship", "shipment", "shipped", "bulk", "production", "factory", "store", "eta", "etd", "turnaround"]);

const DATE_PATTERNS: Array<{ pattern: RegExp; read: (m: RegExpExecArray) => { year?: number; month: number; day: number | "end" } }> = [
  { pattern: /(?<!\d)(\d{4}) (\d{1,2}) (\d{1,2})(?!\d)/g, read: (m) => ({ year: Number(m[1]), month: Number(m[2]) - 1, day: Number(m[3]) }) },
  // Day first, as most buyers outside the United States write it; a second number above 12 can only be a day.
  {
    pattern: /(?<!\d)(\d{1,2}) (\d{1,2}) (\d{4})(?!\d)/g,
    read: (m) => (Number(m[2]) > 12 ? { year: Number(m[3]), month: Number(m[1]) - 1, day: Number(m[2]) } : { year: Number(m[3]), month: Number(m[2]) - 1, day: Number(m[1]) }),
  },
  { pattern: new RegExp(String.raw`(?<!\d)(\d{1,2})(?: ?(?:st|nd|rd|th))?(?: of)? ${MONTH}(?: (\d{4}))?(?![a-z])`, "g"), read: (m) => ({ year: year(m[3]), month: month(m[2]!), day: Number(m[1]) }) },
  { pattern: new RegExp(String.raw`(?<![a-z])${MONTH} (\d{1,2})(?:st|nd|rd|th)?(?: (\d{4}))?(?!\d)`, "g"), read: (m) => ({ year: year(m[3]), month: month(m[1]!), day: Number(m[2]) }) },
  {
    pattern: new RegExp(String.raw`(?<![a-z])(end|mid|middle|early|beginning|start|late)(?: of)? ${MONTH}(?: (\d{4}))?(?![a-z])`, "g"),
    read: (m) => ({ year: year(m[3]), month: month(m[2]!), day: ({ end: "end", late: 25, mid: 15, middle: 15, early: 10 } as const)[m[1] as "end"] ?? 1 }),
  },
  { pattern: new RegExp(String.raw`(?<![a-z])${MONTH} (\d{4})(?!\d)`, "g"), read: (m) => ({ year: Number(m[2]), month: month(m[1]!), day: "end" }) },
];
/** A date counts only after one of these words: other dates in an RFQ (a PO date, an event) are not deadlines. */
const DATE_CUES = new Set([
  "by", "before", "delivery", "deliver", "delivered", "eta", "etd", "ship", "shipped", "shipment", "shipping", "store", "instore",
  "factory", "date", "need", "needed", "arrive", "arrival", "latest", "deadline", "until", "due", "launch", "warehouse", "dispatch",
]);

function month(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3));
}
function year(digits: string | undefined): number | undefined {
  return digits === undefined ? undefined : Number(digits);
}

/** Days from `today` to the date, or undefined when it is not a real date ahead. A date without a year is the next one. */
function daysUntil(date: { year?: number; month: number; day: number | "end" }, today: Date): number | undefined {
  if (date.month < 0 || date.month > 11) return undefined;
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const at = (y: number) => {
    const day = date.day === "end" ? new Date(Date.UTC(y, date.month + 1, 0)).getUTCDate() : date.day;
    const time = Date.UTC(y, date.month, day);
    return day >= 1 && new Date(time).getUTCMonth() === date.month ? time : NaN;
  };
  let time = at(date.year ?? today.getUTCFullYear());
  if (date.year === undefined && time < start) time = at(today.getUTCFullYear() + 1);
  const days = Math.round((time - start) / DAY_MS);
  return Number.isFinite(days) && days >= 1 && days <= MAX_LEAD_TIME_DAYS ? days : undefined;
}

type Candidate = { at: number; days: number };

/** The lead time in `normalized` (lower case, punctuation as spaces, digits ASCII), or undefined. */
export function readLeadTimeDays(normalized: string, today: Date): number | undefined {
  const candidates: Candidate[] = [];
  const wordsBefore = (index: number, count: number) => normalized.slice(0, index).trim().split(" ").slice(-count);

  for (const match of normalized.matchAll(DURATION)) {
    const first = Number(match[1]);
    const second = match[2] === undefined ? undefined : Number(match[2]);
    if (second !== undefined && second <= first) continue;
    const nearest = wordsBefore(match.index, 4).reverse().find((word) => NOT_LEAD_BEFORE.has(word) || LEAD_CUES.has(word));
    if (nearest !== undefined && NOT_LEAD_BEFORE.has(nearest)) continue;
    if (NOT_LEAD_AFTER.test(normalized.slice(match.index + match[0].length).trimStart())) continue;
    const unit = match[3]!;
    const days = (second ?? first) * (unit.startsWith("w") ? 7 : unit.startsWith("m") ? 30 : 1);
    if (days >= 1 && days <= MAX_LEAD_TIME_DAYS) candidates.push({ at: match.index, days });
  }

  const taken: Array<[number, number]> = [];
  for (const { pattern, read } of DATE_PATTERNS) {
    for (const match of normalized.matchAll(pattern)) {
      const end = match.index + match[0].length;
      if (taken.some(([from, to]) => match.index < to && end > from)) continue;
      taken.push([match.index, end]);
      if (!wordsBefore(match.index, 6).some((word) => DATE_CUES.has(word))) continue;
      const days = daysUntil(read(match as RegExpExecArray), today);
      if (days !== undefined) candidates.push({ at: match.index, days });
    }
  }

  candidates.sort((a, b) => a.at - b.at);
  return candidates[0]?.days;
}
