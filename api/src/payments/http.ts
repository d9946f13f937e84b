// One call to a gateway's API: bounded in time, and every way it can fail without an answer turned into GatewayError.
import { GatewayError, type GatewayMethod } from "./gateway";

/** Larger answers are not a gateway's: nothing they send comes near this. */
const MAX_ANSWER_CHARS = 256 * 1024;

/** What every gateway client is built with: its API base (config.payments.gateways) and per-call time limit. */
export type GatewayClientOptions = { baseUrl: string; timeoutMs: number };

export type GatewayRequest = {
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** What the call is, for messages ("bKash token grant"); never the URL, which may carry credentials. */
  label: string;
};

export type GatewayAnswer = { status: number; body: Record<string, unknown> };

/**
 * Sends the request and parses a JSON object answer. Timeouts, refused connections, 5xx answers and bodies that are
 * not a JSON object throw a retryable GatewayError; 4xx answers are returned, since gateways put refusals there.
 */
export async function callGateway(gateway: GatewayMethod, request: GatewayRequest): Promise<GatewayAnswer> {
  let status: number;
  let text: string;
  try {
    // The signal bounds the body read too, so a gateway that sends headers and then stalls is cut off in time.
    const response = await fetch(request.url, {
      method: request.method,
      headers: { Accept: "application/json", ...request.headers },
      body: request.body,
      redirect: "error",
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const name = (error as Error).name;
    if (name === "TimeoutError" || name === "AbortError") {
      throw new GatewayError(gateway, "TIMEOUT", `${request.label} did not answer within ${request.timeoutMs / 1000} s`, true);
    }
    throw new GatewayError(gateway, "UNREACHABLE", `${request.label} could not be reached`, true);
  }
  if (status >= 500) throw new GatewayError(gateway, `HTTP_${status}`, `${request.label} answered HTTP ${status}`, true);
  let body: unknown;
  try {
    if (text.length > MAX_ANSWER_CHARS) throw new Error("too large");
    body = JSON.parse(text);
  } catch {
    throw new GatewayError(gateway, "GARBAGE", `${request.label} answered HTTP ${status} with something that is not JSON`, true);
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new GatewayError(gateway, "GARBAGE", `${request.label} answered HTTP ${status} with JSON that is not an object`, true);
  }
  return { status, body: body as Record<string, unknown> };
}

/** The field as a string, or undefined: gateways' answers are read field by field, never trusted as a shape. */
export function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}
