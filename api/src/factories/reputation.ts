// The factory reputation score: 0-100 from indexed on-chain activity only, so anyone can recompute it from the chain.
// The formula and a worked example are in docs/public-api.md ("Factory reputation").

// The registry's certification bits, named once in the contract's NatSpec (generated at build).
import { CERTIFICATION_CODES, type CertificationCode } from "../generated/contract-constants";
export { CERTIFICATION_CODES, type CertificationCode };

export type ReputationInputs = {
  verified: boolean;
  certificationsMask: number;
  passportsMinted: number;
  supplyChainEvents: number;
  /** Unix seconds of the factory's latest on-chain event, or undefined. */
  lastActivityAt: number | undefined;
  /** Unix seconds "now". */
  now: number;
};

export type ReputationBreakdown = {
  verification: number;
  certifications: number;
  passports: number;
  supplyChain: number;
  recency: number;
};

const DAY = 86_400;
export const WEIGHTS = { verification: 20, certifications: 20, passports: 25, supplyChain: 20, recency: 15 } as const;
/** Activity at which a log-scaled component reaches its full weight. */
const PASSPORTS_FOR_FULL = 500;
const SUPPLY_CHAIN_FOR_FULL = 2000;
const POINTS_PER_CERTIFICATION = 4;

export function certificationsFromMask(mask: number): CertificationCode[] {
  return CERTIFICATION_CODES.filter((_, bit) => (mask & (1 << bit)) !== 0);
}

/** The registry's mask for `codes` (bit i is CERTIFICATION_CODES[i]; codes compared without regard to case). */
export function certificationMask(codes: readonly string[]): number {
  return codes.reduce((mask, code) => {
    const bit = CERTIFICATION_CODES.findIndex((known) => known.toLowerCase() === code.toLowerCase());
    if (bit < 0) throw new Error(`unknown certification ${code}`);
    return mask | (1 << bit);
  }, 0);
}

/** log10(1+n) / log10(1+full), capped at 1: the first passports count most, volume alone cannot buy the score. */
function logShare(n: number, full: number): number {
  return Math.min(1, Math.log10(1 + Math.max(0, n)) / Math.log10(1 + full));
}

export function reputationBreakdown(input: ReputationInputs): ReputationBreakdown {
  const certifications = certificationsFromMask(input.certificationsMask).length;
  let recencyShare = 0;
  if (input.lastActivityAt !== undefined) {
    const ageDays = Math.max(0, input.now - input.lastActivityAt) / DAY;
    // Full within 30 days of the latest on-chain event, then linear down to nothing at one year.
    recencyShare = ageDays <= 30 ? 1 : Math.max(0, 1 - (ageDays - 30) / 335);
  }
  return {
    verification: input.verified ? WEIGHTS.verification : 0,
    certifications: Math.min(WEIGHTS.certifications, certifications * POINTS_PER_CERTIFICATION),
    passports: WEIGHTS.passports * logShare(input.passportsMinted, PASSPORTS_FOR_FULL),
    supplyChain: WEIGHTS.supplyChain * logShare(input.supplyChainEvents, SUPPLY_CHAIN_FOR_FULL),
    recency: WEIGHTS.recency * recencyShare,
  };
}

export function reputationScore(input: ReputationInputs): number {
  const parts = reputationBreakdown(input);
  const total = parts.verification + parts.certifications + parts.passports + parts.supplyChain + parts.recency;
  return Math.max(0, Math.min(100, Math.round(total)));
}

/** A at 85 and above, B 70, C 55, D 40, F below. */
export function reputationGrade(score: number): "A" | "B" | "C" | "D" | "F" {
  if (score >= 85) return "A";
  if (score >= 70) return "B";
  if (score >= 55) return "C";
  if (score >= 40) return "D";
  return "F";
}
