// How the dashboard writes dates, numbers and hashes: one place, so every screen reads the same.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });
const dayShort = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", timeZone: "UTC" });
const number = new Intl.NumberFormat();

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** A calendar day ("2026-11-03") as the reader writes it; days are UTC on the server. */
export function formatDay(day: string, short = false): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return (short ? dayShort : dateOnly).format(date);
}

export function formatNumber(value: number): string {
  return number.format(value);
}

/** 0x1234abcd…9f0e: enough to recognise a hash; the full value is in the title and a click away. */
export function shortHash(hash: string): string {
  return hash.length > 18 ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : hash;
}
