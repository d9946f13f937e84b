// The OpenAI-compatible chat client of RFQ matching: JSON answers within one time budget per request, and every
// failure reduced to a short reason ("timeout", "HTTP 500", "malformed JSON") that never carries the API key.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import type { Config } from "../config";

export class AiFailure extends Error {
  constructor(readonly reason: string, readonly status?: number) {
    super(reason);
  }
}

/** One deadline shared by every AI call of a request; aborting it cancels the call in flight. */
export class AiBudget {
  private readonly controller = new AbortController();
  private readonly deadline: number;
  private readonly timer: NodeJS.Timeout;

  constructor(totalMs: number) {
    this.deadline = Date.now() + totalMs;
    this.timer = setTimeout(() => this.controller.abort(), totalMs);
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  remainingMs(): number {
    return this.controller.signal.aborted ? 0 : Math.max(0, this.deadline - Date.now());
  }

  /** Ends the budget: a call still running is aborted. */
  dispose(): void {
    clearTimeout(this.timer);
    this.controller.abort();
  }
}

export type AiAnswer = { json: unknown; model: string };

export type AiClient = {
  readonly timeoutMs: number;
  /** One chat completion in JSON mode; resolves with the parsed object or rejects with an AiFailure. */
  completeJson(system: string, user: string, budget: AiBudget): Promise<AiAnswer>;
};

/** Longest answer we parse; a JSON object for a handful of factories is far shorter. */
const MAX_ANSWER_CHARS = 32_000;
/** A call is not started with less time than this left. */
const MIN_CALL_MS = 50;

/** The client for the configured server, or undefined when no API key is configured (the local matcher is used). */
export function createAiClient(settings: Config["openai"]): AiClient | undefined {
  if (!settings.apiKey) return undefined;
  // Every option the SDK would otherwise read from process.env is given here: config.ts is the one reader.
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl ?? "https://api.openai.com/v1",
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: settings.timeoutMs,
    logLevel: "off",
  });

  return {
    timeoutMs: settings.timeoutMs,
    async completeJson(system, user, budget) {
      const remaining = budget.remainingMs();
      if (remaining < MIN_CALL_MS) throw new AiFailure("timeout");
      try {
        const call = client.chat.completions.create(
          {
            model: settings.model,
            response_format: { type: "json_object" },
            messages: [
              { role: "system", content: system },
              { role: "user", content: user },
            ],
          },
          { signal: budget.signal, timeout: remaining, maxRetries: 0 },
        );
        const completion = await untilAborted(call, budget.signal);
        const content = completion.choices?.[0]?.message?.content;
        if (typeof content !== "string" || content.trim() === "") throw new AiFailure("empty answer");
        if (content.length > MAX_ANSWER_CHARS) throw new AiFailure("answer too long");
        let json: unknown;
        try {
          json = JSON.parse(withoutCodeFence(content));
        } catch {
          throw new AiFailure("malformed JSON");
        }
        const reported = completion.model;
        const model = typeof reported === "string" && /^[\x21-\x7e][\x20-\x7e]{0,99}$/.test(reported) ? reported : settings.model;
        return { json, model };
      } catch (error) {
        throw failureOf(error, budget.signal);
      }
    },
  };
}

/** Settles as soon as the budget runs out, whatever the SDK does with the abort. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AiFailure("timeout"));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Some servers wrap JSON mode answers in a Markdown fence anyway. Read with string operations: the answer is text the
 * model wrote from a client's request, and the pattern this replaces backtracked quadratically on a run of newlines.
 */
function withoutCodeFence(content: string): string {
  const trimmed = content.trim();
  const firstLineEnd = trimmed.indexOf("\n");
  if (firstLineEnd < 0 || !trimmed.startsWith("```") || !trimmed.endsWith("```") || trimmed.length < firstLineEnd + 4) return content;
  const language = trimmed.slice(3, firstLineEnd).trimEnd().toLowerCase();
  if (language !== "" && language !== "json") return content;
  const body = trimmed.slice(firstLineEnd + 1, -3);
  return body.endsWith("\n") ? body.slice(0, -1) : body;
}

function failureOf(error: unknown, signal: AbortSignal): AiFailure {
  if (error instanceof AiFailure) return error;
  if (signal.aborted || error instanceof APIUserAbortError || error instanceof APIConnectionTimeoutError) return new AiFailure("timeout");
  if (error instanceof APIError && typeof error.status === "number") return new AiFailure(`HTTP ${error.status}`, error.status);
  if (error instanceof APIConnectionError) return new AiFailure("connection failed");
  // Anything else (an answer without choices, a body that is not a completion) is an answer we cannot use.
  return new AiFailure("invalid answer");
}
