// Bearer-token authentication of factory operators (tokens from POST /api/login).
import type { Middleware } from "koa";
import type { AppDeps, AppState } from "../app";
import { operatorForToken } from "../auth/sessions";
import { UnauthorizedError } from "../errors";

export function requireOperator(deps: AppDeps): Middleware<AppState> {
  return async (ctx, next) => {
    const match = /^Bearer\s+(\S{1,200})$/i.exec(ctx.get("Authorization"));
    if (!match) throw new UnauthorizedError("Send the token from POST /api/login as 'Authorization: Bearer <token>'.");
    const operator = await operatorForToken(deps.db, match[1]!);
    if (!operator) throw new UnauthorizedError("The token is unknown or expired; log in again.");
    ctx.state.operator = operator;
    await next();
  };
}
