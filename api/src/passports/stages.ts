// Supply-chain stage codes recorded on chain (IProductPassport), and their names.
export const STAGES: Readonly<Record<number, string>> = {
  1: "fibre_sourced",
  2: "spun",
  3: "woven_or_knitted",
  4: "dyed_or_printed",
  5: "cut",
  6: "sewn",
  7: "finished",
  8: "quality_checked",
  9: "packed",
  10: "shipped",
  11: "received",
  12: "retail_ready",
};

export const PASSPORT_STATUSES = ["active", "lost", "stolen", "recovered"] as const;
