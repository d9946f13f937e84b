// Makes a brand's POST safe to retry with an Idempotency-Key header: the handler's writes and its response are
// stored in one transaction (idempotency/service.ts), and a retry with the key gets that response again
// (Idempotent-Replayed: true) while creating nothing.
import type { Middleware } from "koa";
import type { AppDeps, AppState } from "../deps";
import { ValidationError } from "../errors";
import { runOnce } from "../idempotency/service";

export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{1,100}$/;

/**
 * Runs after requireBrand and validateBody: keys are per brand, and the stored body is compared with the validated
 * input. The handler writes through ctx.state.transaction when it is set, so its writes commit with the response.
 * Without the header the handler runs as it is.
 */
export function idempotent(deps: Pick<AppDeps, "db">, endpoint: string): Middleware<AppState> {
  return async (ctx, next) => {
    const key = ctx.get("Idempotency-Key") || undefined;
    if (key === undefined) return next();
    if (!IDEMPOTENCY_KEY.test(key)) {
      throw new ValidationError([{ field: "Idempotency-Key", problem: "must be 1-100 characters of A-Z a-z 0-9 _ . : -" }]);
    }
    const brand = ctx.state.brand;
    if (!brand) throw new Error("idempotent must run after requireBrand");
    const outcome = await runOnce(deps.db, { brandId: brand.id, endpoint, key, request: ctx.state.input }, async (trx) => {
      ctx.state.transaction = trx;
      try {
        await next();
      } finally {
        ctx.state.transaction = undefined;
      }
      return { status: ctx.status, body: ctx.body };
    });
    if (outcome.replayed) ctx.set("Idempotent-Replayed", "true");
    ctx.status = outcome.status;
    ctx.body = outcome.body;
  };
}
