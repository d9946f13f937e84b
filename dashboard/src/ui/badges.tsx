// Short status words with a colour, always with the word itself (never colour alone).
const PASSPORT: Record<string, { text: string; tone: string }> = {
  unissued: { text: "Not issued", tone: "neutral" },
  pending: { text: "Pending", tone: "warn" },
  confirming: { text: "Confirming", tone: "warn" },
  verified: { text: "Verified", tone: "ok" },
};

const CHAIN: Record<string, { text: string; tone: string }> = {
  active: { text: "Active", tone: "ok" },
  recovered: { text: "Recovered", tone: "ok" },
  lost: { text: "Lost", tone: "bad" },
  stolen: { text: "Stolen", tone: "bad" },
};

export function PassportBadge({ status }: { status: string }) {
  const badge = PASSPORT[status] ?? { text: status, tone: "neutral" };
  return <span className={`badge ${badge.tone}`}>{badge.text}</span>;
}

export function ChainStatusBadge({ status }: { status: string | null | undefined }) {
  if (!status) return null;
  const badge = CHAIN[status] ?? { text: status, tone: "neutral" };
  return <span className={`badge ${badge.tone}`}>{badge.text}</span>;
}

export function Badge({ tone, children }: { tone: "ok" | "warn" | "bad" | "neutral"; children: string }) {
  return <span className={`badge ${tone}`}>{children}</span>;
}
