// Shapes factory JSON; spec 2.1 for the reputation record.
import type { FactoryReputation } from "../../factories/service";

export function presentReputation(factory: FactoryReputation) {
  return {
    factory_id: factory.factoryId,
    factory_name: factory.name ?? `Factory ${factory.factoryId}`,
    score: factory.score,
    grade: factory.grade,
    on_chain_events: factory.onChainEvents,
    dpp_issued: factory.passportsMinted,
    certifications: factory.certifications,
    verified: factory.verified,
  };
}
