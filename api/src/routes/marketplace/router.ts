// POST /api/marketplace/match (spec 4.3): ranked registry factories for a natural-language RFQ.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { ValidationError } from "../../errors";
import { createAiClient } from "../../marketplace/ai-client";
import { MAX_MATCHES, RFQ_MIN_LENGTH } from "../../marketplace/rfq";
import { aiWithheld, matchRfq } from "../../marketplace/service";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { defineRoute, mountRoutes } from "../define-route";
import { presentMatchResult } from "./presenter";
import { matchRequestSchema, matchResponseSchema } from "./schemas";

export function marketplaceRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const ai = createAiClient(deps.config.openai);

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "post",
      path: "/api/marketplace/match",
      operationId: "matchRfq",
      tag: "Public",
      auth: "public",
      summary: "Match a request for quotation (RFQ) to registry factories",
      description:
        `Reads the RFQ (with the configured AI model, else a local keyword matcher), keeps the registered factories that ` +
        `hold every required certification on chain, make the product (or a related one) and can take the quantity, ` +
        `and ranks them by a 0-100 score: product type 35, reputation 30, country 10, lead time 10, capacity headroom 10, ` +
        `verified 5. At most ${MAX_MATCHES} matches. "model" names the AI model that read the RFQ, "local-matcher-v1" ` +
        `when none is configured, or "local-matcher-v1 (fallback: <reason>)" when it failed, was too slow, or the client's ` +
        `hourly or the service's daily AI quota was reached (the reason is then "client AI quota" or "daily AI quota"). docs/rfq-matching.md ` +
        `documents the vocabulary and the weights.`,
      body: matchRequestSchema,
      bodyExample: { rfq: "5,000 organic cotton tees, GOTS certified, from Bangladesh or India, within 60 days", quantity: 5000, certifications: ["GOTS"] },
      responses: {
        "200": {
          description:
            "ranked matches (spec 2.2), best first; empty when no factory passes the filters, with the reason in rfq_summary and the nearest misses in near_misses",
          schema: matchResponseSchema,
          example: {
            matches: [
              {
                factory_id: 1003,
                name: "Fatullah Knit Composite Ltd.",
                score: 92,
                reason: "Makes t-shirts, polos and knitwear; GOTS, OEKO-TEX, BCI and SA8000 certified; capacity 900,000 units/month covers 5,000; lead time 60 days, within 60; in Bangladesh; reputation 74 (B), verified.",
                certifications: ["GOTS", "OEKO-TEX", "BCI", "SA8000"],
                location: "Narayanganj, Bangladesh",
              },
            ],
            rfq_summary: "Wanted: t-shirts; 5,000 units; GOTS certified; made in Bangladesh or India; lead time up to 60 days; keywords: organic, cotton. 5 of 24 registered factories qualify; listed by match score.",
            model: "local-matcher-v1",
          },
        },
        "415": errorResponse("the body is not sent as application/json"),
        "422": errorResponse("missing or invalid fields; details name them"),
        "503": errorResponse("the chain indexer has not published its data yet"),
      },
      handler: async (ctx) => {
        const input = ctx.state.input;
        if (input.rfq.trim().length < RFQ_MIN_LENGTH) {
          throw new ValidationError([{ field: "rfq", problem: `must have at least ${RFQ_MIN_LENGTH} characters besides surrounding spaces` }]);
        }
        // The model is asked only within the AI quotas; past them the local matcher answers, and `model` says why.
        const withheld = ai ? await aiWithheld(deps, deps.config.openai, ctx.ip, ctx.state.requestId) : undefined;
        const outcome = await matchRfq(
          { db: deps.db, onchainSchema: deps.config.onchainSchema, ai: withheld ? undefined : ai, aiWithheld: withheld, logger: deps.logger },
          input,
          ctx.state.requestId,
        );
        ctx.set("Cache-Control", "no-store");
        ctx.body = presentMatchResult(outcome);
      },
    }),
  ]);
}
