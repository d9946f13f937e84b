// Bearer-token authentication of factory operators (tokens from POST /api/login).
import type { Middleware } from "koa";
import type { AppDeps, AppState } from "../deps";
import { operatorForToken } from "../auth/sessions";
import { UnauthorizedError } from "../errors";

/** The operator token sent as `Authorization: Bearer <token>`, or undefined (logout reads it to end the session). */
export function operatorToken(authorization: string): string | undefined {
  return /^Bearer\s+(\S{1,200})$/i.exec(authorization)?.[1];
}

export function requireOperator(deps: AppDeps): Middleware<AppState> {
  return async (ctx, next) => {
    const token = operatorToken(ctx.get("Authorization"));
    if (!token) throw new UnauthorizedError("Send the token from POST /api/login as 'Authorization: Bearer <token>'.");
    const operator = await operatorForToken(deps.db, token);
    if (!operator) throw new UnauthorizedError("The token is unknown or expired; log in again.");
    ctx.state.operator = operator;
    await next();
  };
}
