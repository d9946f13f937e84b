// Shapes the match response: spec 4.3, each match a spec 2.2 record; with no match, the near misses as well (our
// extension: a field the spec does not name, present only when `matches` is empty).
import type { FactoryReputation } from "../../factories/service";
import { countryName } from "../../marketplace/countries";
import type { MatchOutcome } from "../../marketplace/service";

const location = (factory: FactoryReputation) =>
  [factory.city, factory.country ? countryName(factory.country) : null].filter(Boolean).join(", ") || "Unknown";
const name = (factory: FactoryReputation) => factory.name ?? `Factory ${factory.factoryId}`;

export function presentMatchResult(outcome: MatchOutcome) {
  return {
    matches: outcome.matches.map(({ factory, score, reason }) => ({
      factory_id: factory.factoryId,
      name: name(factory),
      score,
      reason,
      certifications: factory.certifications,
      location: location(factory),
    })),
    ...(outcome.matches.length === 0
      ? {
          near_misses: outcome.nearMisses.map(({ factory, score, lacks }) => ({
            factory_id: factory.factoryId,
            name: name(factory),
            score,
            certifications: factory.certifications,
            location: location(factory),
            lacks,
          })),
        }
      : {}),
    rfq_summary: outcome.rfqSummary,
    model: outcome.model,
  };
}
