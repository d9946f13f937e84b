// The dashboard's one HTTP client: openapi-fetch typed by the routes' own OpenAPI declarations (schema.d.ts), with the
// session cookie, the CSRF token on every write, and a 401 sending the user to sign in; plus the helpers that unwrap
// the JSON envelope into data or an ApiError, and the one upload that needs progress events (XMLHttpRequest).
import { navigate } from "wouter/use-browser-location";
import createClient, { type Middleware } from "openapi-fetch";
import { APP_BASE, currentAppPath, isPublicScreen } from "../paths";
import { csrfToken, setSession } from "../session";
import type { components, paths } from "./schema";

/** An operation with its X-CSRF-Token header made optional: the middleware below adds it to every write. */
type CsrfSupplied<Op> = Op extends { parameters: { header: infer Header } }
  ? Omit<Op, "parameters"> & { parameters: Omit<Op["parameters"], "header"> & { header?: Omit<Header, "X-CSRF-Token"> } }
  : Op;
type WithCsrfSupplied<Paths> = { [Path in keyof Paths]: { [Method in keyof Paths[Path]]: Method extends "parameters" ? Paths[Path][Method] : CsrfSupplied<Paths[Path][Method]> } };

/** The API's paths as the routes declare them (scripts/export-openapi.ts), writes needing no CSRF argument. */
export type DashboardPaths = WithCsrfSupplied<paths>;

type ErrorBody = components["schemas"]["Error"];
export type ErrorDetail = { field?: string; problem?: string };

/** A refusal from the API (or no answer at all: status 0), with its stable code and per-field problems. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The server's problems with one field or its parts ("fiber_composition.0.percent"), e.g. "must be ≤ 100". */
  problemWith(field: string): string | undefined {
    const problems = this.details
      .filter((detail) => detail.problem && (detail.field === field || detail.field?.startsWith(`${field}.`)))
      .map((detail) => (detail.field === field ? detail.problem : `${detail.field!.slice(field.length + 1)}: ${detail.problem}`));
    return problems.length ? problems.join("; ") : undefined;
  }
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The answer to a wrong password is a 401 too, and must stay on the sign-in form. */
function isSignInAttempt(method: string, url: string): boolean {
  return method === "POST" && new URL(url, window.location.href).pathname === "/api/dashboard/session";
}

/** The session is over (expired, signed out elsewhere, removed from the team): forget it and ask to sign in again. */
export function sessionEnded(): void {
  setSession(null);
  const here = currentAppPath();
  if (isPublicScreen(here.split("?")[0]!)) return;
  const next = here === "/" ? "" : `?next=${encodeURIComponent(here)}`;
  navigate(`${APP_BASE}/sign-in${next}`, { replace: true });
}

const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    const token = csrfToken();
    if (!READS.has(request.method) && token) request.headers.set("X-CSRF-Token", token);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !isSignInAttempt(request.method, request.url)) sessionEnded();
    return response;
  },
};

// Same origin only: the session cookie goes with every call, and to nobody else.
export const api = createClient<DashboardPaths>({ baseUrl: "", credentials: "same-origin" });
api.use(sessionMiddleware);

const UNREACHABLE = "The dashboard could not reach the server. Check your connection and try again.";

function toApiError(status: number, body: unknown): ApiError {
  const error = (body as Partial<ErrorBody> | undefined)?.error;
  if (error && typeof error.code === "string") return new ApiError(status, error.code, error.message, error.details ?? [], error.request_id);
  if (status === 413) return new ApiError(status, "PAYLOAD_TOO_LARGE", "The file is too large.");
  return new ApiError(status, "HTTP_ERROR", `The server answered ${status}. Try again in a moment.`);
}

type Answer<Body> = { data?: Body; error?: unknown; response: Response };

async function settle<Body>(pending: Promise<Answer<Body>>): Promise<{ body: Body | undefined; response: Response }> {
  let answer: Answer<Body>;
  try {
    answer = await pending;
  } catch {
    throw new ApiError(0, "NETWORK", UNREACHABLE);
  }
  if (!answer.response.ok) throw toApiError(answer.response.status, answer.error);
  return { body: answer.data, response: answer.response };
}

/** The `data` of a successful JSON envelope; throws ApiError otherwise. */
export async function dataOf<T>(pending: Promise<Answer<{ data: T }>>): Promise<T> {
  const { body } = await settle(pending);
  if (!body) throw new ApiError(0, "EMPTY", "The server sent an empty answer.");
  return body.data;
}

/** A page of a list: its items and the envelope's `meta` (page, per_page, total). */
export async function pageOf<T, M>(pending: Promise<Answer<{ data: T; meta: M }>>): Promise<{ data: T; meta: M }> {
  const { body } = await settle(pending);
  if (!body) throw new ApiError(0, "EMPTY", "The server sent an empty answer.");
  return { data: body.data, meta: body.meta };
}

/** A call answered with no content (204) or content the caller does not need. */
export async function done(pending: Promise<Answer<unknown>>): Promise<void> {
  await settle(pending);
}

/**
 * A file sent as the raw request body. The schema declares such bodies as OpenAPI binary strings; fetch sends the
 * File's bytes as they are, so only the type needs telling.
 */
export function rawBody(file: Blob): string {
  return file as unknown as string;
}

/** A text answer (the brand preview's HTML). */
export async function textOf(pending: Promise<Answer<string>>): Promise<string> {
  const { body } = await settle(pending);
  return body ?? "";
}

/**
 * Sends a file as the raw request body with XMLHttpRequest, which (unlike fetch) reports upload progress; the same
 * cookie, CSRF token and 401 handling as the client. Resolves with the envelope's data.
 */
export function uploadWithProgress<T>(
  path: "/api/dashboard/imports",
  file: Blob,
  contentType: string,
  onProgress: (sent: number, total: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.responseType = "text";
    xhr.setRequestHeader("Content-Type", contentType);
    xhr.setRequestHeader("Accept", "application/json");
    const token = csrfToken();
    if (token) xhr.setRequestHeader("X-CSRF-Token", token);
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onerror = () => reject(new ApiError(0, "NETWORK", UNREACHABLE));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body && typeof body === "object" && "data" in body) {
        resolve((body as { data: T }).data);
        return;
      }
      if (xhr.status === 401) sessionEnded();
      reject(toApiError(xhr.status, body));
    };
    xhr.send(file);
  });
}
