// Error classes with the stable codes of spec section 7 (plus the few the spec leaves open, listed in docs/api-conventions.md).

export type ErrorDetail = { field: string; problem: string };

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * 401 MISSING_KEY: a credential header of spec 5 is absent, so nothing was checked: no Authorization header (or an
 * empty bearer), or no X-Service-Brand (the key is valid only with its brand's slug). Which one is named.
 */
export class MissingKeyError extends AppError {
  constructor(header: "Authorization" | "X-Service-Brand" = "Authorization") {
    super(
      401,
      "MISSING_KEY",
      header === "Authorization"
        ? "Send your API key as 'Authorization: Bearer <key>'."
        : "The X-Service-Brand header is missing: send your brand's slug with your API key ('X-Service-Brand: <slug>').",
      [{ field: header, problem: "is required" }],
    );
  }
}

/**
 * 401 INVALID_KEY: credentials were sent and are wrong: an unknown, revoked or other brand's key (one message for
 * all, so the answer tells nothing about other brands), or an Authorization header that is not "Bearer <key>".
 */
export class InvalidKeyError extends AppError {
  constructor(problem: "key" | "scheme" = "key") {
    super(
      401,
      "INVALID_KEY",
      problem === "key"
        ? "The API key is not valid for this brand."
        : "The Authorization header is not 'Bearer <key>': send your API key after the word Bearer and one space.",
      problem === "key" ? undefined : [{ field: "Authorization", problem: "must be 'Bearer <key>'" }],
    );
  }
}

export class BrandInactiveError extends AppError {
  constructor() {
    super(403, "BRAND_INACTIVE", "This brand account is suspended.");
  }
}

export class NotFoundError extends AppError {
  constructor(resource: string) {
    super(404, "NOT_FOUND", `${resource} not found.`);
  }
}

export class ValidationError extends AppError {
  constructor(details: ErrorDetail[], message = "The request has missing or invalid fields.") {
    super(422, "VALIDATION_ERROR", message, details);
  }
}

export class RateLimitError extends AppError {
  constructor(retryAfterSeconds: number, message = "Hourly rate limit exceeded.") {
    super(429, "RATE_LIMIT", message, undefined, { "Retry-After": String(retryAfterSeconds) });
  }
}

export class MonthlyLimitError extends AppError {
  constructor(meter: string, retryAfterSeconds: number) {
    super(429, "MONTHLY_LIMIT_REACHED", `Monthly ${meter} quota exhausted.`, undefined, {
      "Retry-After": String(retryAfterSeconds),
    });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "A valid bearer token is required.") {
    super(401, "UNAUTHORIZED", message, undefined, { "WWW-Authenticate": 'Bearer realm="passport-registry"' });
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, "FORBIDDEN", message);
  }
}

/** 403 PLAN_FEATURE: the brand's plan does not include a feature (a payment method, a custom domain). */
export class PlanFeatureError extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(403, "PLAN_FEATURE", message, details);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, "CONFLICT", message);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, retryAfterSeconds = 5) {
    super(503, "SERVICE_UNAVAILABLE", message, undefined, { "Retry-After": String(retryAfterSeconds) });
  }
}

/**
 * 401: a reader's credential on a passport read (docs/access.md) was sent and is wrong. No credential is a public
 * read; a bad one is never read as public. READER_KEY_INVALID: an unknown or revoked reader, authority or API key;
 * CREDENTIAL_INVALID: a role credential that is malformed, forged (its signature fails) or states no role;
 * CREDENTIAL_EXPIRED; CREDENTIAL_AUDIENCE: made out to another service; CREDENTIAL_UNTRUSTED_ISSUER: its issuer is
 * not on the operator's trust list.
 */
export class ReaderCredentialError extends AppError {
  constructor(
    code: "READER_KEY_INVALID" | "CREDENTIAL_INVALID" | "CREDENTIAL_EXPIRED" | "CREDENTIAL_AUDIENCE" | "CREDENTIAL_UNTRUSTED_ISSUER",
    message: string,
  ) {
    super(401, code, message, undefined, { "WWW-Authenticate": 'Bearer realm="passport-readers"' });
  }
}

/** 403 ACCESS_CLASS_REQUIRED: the element (or a version's exact bytes) is shown only to a reader of a narrower class. */
export class AccessClassRequiredError extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(403, "ACCESS_CLASS_REQUIRED", message, details);
  }
}
