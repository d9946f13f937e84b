// RFQ matching (spec 4.3): read the needs (AI or local), filter and rank the registry deterministically, then word the
// result (AI or templates). The AI may only change how the RFQ is understood and how the result is worded.
import type { Knex } from "../db/knex";
import type { Logger } from "../logger";
import { factoriesWithReputation } from "../factories/service";
import { AiBudget, type AiClient, type AiFailure } from "./ai-client";
import { takeAiMatch, type AiQuotaLimits } from "./ai-quota.repo";
import { applyRequest, extractNeeds, type Needs } from "./needs";
import { nearMisses, rankFactories, type NearMiss, type RankedFactory, type Ranking } from "./ranking";
import type { MatchRequest } from "./rfq";
import { aiWording, templateReason, templateSummary } from "./wording";

export const LOCAL_MODEL = "local-matcher-v1";

export type MatchDeps = {
  db: Knex;
  onchainSchema: string;
  ai: AiClient | undefined;
  logger: Logger;
  /** Why the configured model is not asked this time (a quota), reported in `model`. */
  aiWithheld?: string;
};

export type MatchOutcome = {
  needs: Needs;
  ranking: Ranking;
  matches: Array<RankedFactory & { reason: string }>;
  /** With no match: the factories closest to qualifying, each with what it lacks (else empty). */
  nearMisses: NearMiss[];
  rfqSummary: string;
  model: string;
};

export async function matchRfq(deps: MatchDeps, request: MatchRequest, requestId: string): Promise<MatchOutcome> {
  const rfq = request.rfq.trim();
  const budget = deps.ai ? new AiBudget(deps.ai.timeoutMs) : undefined;
  try {
    // The registry read and the AI reading run side by side; the budget bounds the AI part.
    const [factories, extraction] = await Promise.all([
      factoriesWithReputation(deps.db, deps.onchainSchema),
      extractNeeds(rfq, deps.ai, budget),
    ]);
    if (extraction.failure) logFailure(deps.logger, requestId, "reading the RFQ", extraction.failure);

    const needs = applyRequest(extraction.needs, request);
    const ranking = rankFactories(factories, needs);
    const misses = ranking.matches.length === 0 ? nearMisses(factories, needs) : [];
    let summary = templateSummary(needs, ranking, misses);
    const reasons = new Map<number, string>();

    // With no match the template says exactly which filter emptied the list; no model call is needed for that.
    if (deps.ai && budget && extraction.model && ranking.matches.length > 0) {
      const wording = await aiWording(rfq, needs, ranking, deps.ai, budget);
      if (wording.failure) logFailure(deps.logger, requestId, "wording the result", wording.failure);
      summary = wording.summary ?? summary;
      for (const [factoryId, reason] of wording.reasons) reasons.set(factoryId, reason);
    }

    return {
      needs,
      ranking,
      matches: ranking.matches.map((match) => ({ ...match, reason: reasons.get(match.factory.factoryId) ?? templateReason(match, needs) })),
      nearMisses: misses,
      rfqSummary: summary,
      model: extraction.model ?? fallbackModel(extraction.failure?.reason ?? deps.aiWithheld),
    };
  } finally {
    budget?.dispose();
  }
}

/**
 * Why the model is not asked for this match ("client AI quota", "daily AI quota"), or undefined when the quotas let
 * it be asked; the match itself is served either way.
 */
export async function aiWithheld(deps: { db: Knex; logger: Logger }, limits: AiQuotaLimits, client: string, requestId: string): Promise<string | undefined> {
  return takeAiMatch(deps.db, limits, client).catch((error: unknown) => {
    // Without the counters the model is not asked (its cost would be unbounded); the local matcher still answers.
    deps.logger.warn({ err: error, requestId }, "RFQ matching: AI quota unavailable");
    return "AI quota unavailable";
  });
}

const fallbackModel = (reason: string | undefined) => (reason ? `${LOCAL_MODEL} (fallback: ${reason})` : LOCAL_MODEL);

function logFailure(logger: Logger, requestId: string, stage: string, failure: AiFailure): void {
  // Only our own short reason and the HTTP status: a provider's message can quote part of the key.
  logger.warn({ requestId, stage, reason: failure.reason, status: failure.status }, "RFQ matching: AI model not used, local fallback");
}
