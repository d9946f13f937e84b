// Shapes the match response: spec 4.3, each match a spec 2.2 record.
import { countryName } from "../../marketplace/countries";
import type { MatchOutcome } from "../../marketplace/service";

export function presentMatchResult(outcome: MatchOutcome) {
  return {
    matches: outcome.matches.map(({ factory, score, reason }) => ({
      factory_id: factory.factoryId,
      name: factory.name ?? `Factory ${factory.factoryId}`,
      score,
      reason,
      certifications: factory.certifications,
      location: [factory.city, factory.country ? countryName(factory.country) : null].filter(Boolean).join(", ") || "Unknown",
    })),
    rfq_summary: outcome.rfqSummary,
    model: outcome.model,
  };
}
