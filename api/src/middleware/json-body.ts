// Reads a JSON request body with a size limit; the parsed value goes on ctx.state.body for validation.
import getRawBody from "raw-body";
import type { Middleware } from "koa";
import type { AppState } from "../app";
import { AppError, ValidationError } from "../errors";

export function jsonBody(limitBytes = 64 * 1024): Middleware<AppState> {
  return async (ctx, next) => {
    if (!["POST", "PUT", "PATCH"].includes(ctx.method)) return next();
    const length = Number(ctx.get("Content-Length") || 0);
    const hasBody = length > 0 || ctx.get("Transfer-Encoding") !== "";
    if (hasBody && !ctx.is("application/json")) {
      throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as Content-Type: application/json.");
    }
    let raw = "";
    if (hasBody) {
      try {
        raw = await getRawBody(ctx.req, { length: length || undefined, limit: limitBytes, encoding: "utf8" });
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status === 413) throw new AppError(413, "PAYLOAD_TOO_LARGE", `The body is larger than ${limitBytes} bytes.`);
        throw new AppError(400, "BAD_REQUEST", "The request body could not be read.");
      }
    }
    if (raw.trim() === "") {
      ctx.state.body = undefined;
    } else {
      try {
        ctx.state.body = JSON.parse(raw);
      } catch {
        throw new ValidationError([{ field: "body", problem: "is not valid JSON" }]);
      }
    }
    ctx.state.rawBody = raw;
    return next();
  };
}
