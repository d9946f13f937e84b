// Caddy's on-demand TLS ask endpoint (GET /internal/tls/ask?domain=…): before Caddy obtains a certificate for a name
// it meets in a TLS handshake, it asks here; any 2xx allows it, anything else aborts the handshake. 200 only for a
// brand's subdomain and a verified custom domain, from the indexed lookup Host routing uses (cached; no DNS), so
// nobody makes Caddy fetch certificates for names of their choosing. Asked from this machine only, or with the
// shared secret (TLS_ASK_SECRET) wherever Caddy runs.
import { createHash, timingSafeEqual } from "node:crypto";
import type Router from "@koa/router";
import type { Context } from "koa";
import type { AppDeps, AppState } from "../../deps";
import { SiteHosts } from "../../domains/site-hosts";
import { AppError, ForbiddenError } from "../../errors";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { addressRange } from "../../webhooks/ssrf";
import { defineRoute, mountRoutes } from "../define-route";

export const TLS_ASK_PATH = "/internal/tls/ask";
const SECRET_HEADER = "X-TLS-Ask-Secret";

const askQuery = {
  type: "object",
  additionalProperties: false,
  required: ["domain"],
  properties: {
    domain: { type: "string", minLength: 1, maxLength: 254, description: "the server name of the handshake (any letter case, a trailing dot allowed)" },
    secret: { type: "string", maxLength: 200, description: `TLS_ASK_SECRET, when the service has one (or in the ${SECRET_HEADER} header)` },
  },
} as const;

const allowedSchema = {
  type: "object",
  additionalProperties: false,
  required: ["domain"],
  properties: { domain: { type: "string", description: "the name, lower case, without a trailing dot" } },
} as const;

export function tlsAskRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const sites = new SiteHosts(deps);
  const secret = deps.config.domains.tlsAskSecret;
  const secretHash = secret === undefined ? undefined : sha256(secret);

  /** With a secret configured it is required, from anywhere; without one, only a direct call from this machine. */
  const mayAsk = (ctx: Context): boolean => {
    if (secretHash) {
      const given = (ctx.query.secret as string | undefined) ?? ctx.get(SECRET_HEADER);
      return given !== "" && timingSafeEqual(sha256(given), secretHash);
    }
    const remote = ctx.req.socket.remoteAddress;
    // Relayed by a proxy on this machine (X-Forwarded-For set) is a client elsewhere, whatever the socket says.
    const relayed = ctx.get("X-Forwarded-For") !== "" || ctx.get("Forwarded") !== "";
    return !relayed && remote !== undefined && addressRange(remote) === "loopback";
  };

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: TLS_ASK_PATH,
      operationId: "tlsAsk",
      tag: "Internal",
      auth: "public",
      summary: "Caddy's on-demand TLS ask: 200 when a certificate may be obtained for `domain`, 404 otherwise",
      description:
        "200 for `<slug>.<BASE_DOMAIN>` of an active brand and for a brand's verified custom domain; 404 for any other " +
        "name (the main host has its own site block, not on-demand). Answered from an indexed lookup cached a few " +
        "seconds, never from DNS. Without TLS_ASK_SECRET only a direct call from this machine (loopback, no " +
        `X-Forwarded-For) is answered; with it, the secret is required (\`secret\` or ${SECRET_HEADER}), from anywhere. ` +
        "Deployment: docs/custom-domains.md.",
      query: askQuery,
      headers: [{ name: SECRET_HEADER, schema: { type: "string", maxLength: 200 }, description: "TLS_ASK_SECRET, instead of the `secret` parameter" }],
      responses: {
        "200": { description: "a certificate may be obtained for this name", schema: allowedSchema, example: { domain: "shop.example.com" } },
        "403": errorResponse("not from this machine, or without the right secret (FORBIDDEN)"),
        "404": errorResponse("no brand is served at this name (NOT_FOUND)"),
        "422": errorResponse("no `domain`, or an unknown parameter"),
      },
      handler: async (ctx) => {
        if (!mayAsk(ctx)) throw new ForbiddenError("Only the TLS proxy may ask.");
        ctx.set("Cache-Control", "no-store");
        const kind = sites.classify(ctx.query.domain);
        const host = kind.kind === "main" ? undefined : await sites.resolve(kind);
        if (host?.site !== "brand") throw new AppError(404, "NOT_FOUND", "No brand is served at this name.");
        ctx.body = { domain: host.brand.host };
      },
    }),
  ]);
}

function sha256(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}
