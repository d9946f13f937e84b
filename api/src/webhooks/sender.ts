// One HTTP POST of a webhook: SSRF-checked destination, pinned address, bounded time, no redirects.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { resolveDestination, UrlRefusedError, type Destination, type HostResolver, type UrlPolicy } from "./ssrf";

export type SendOutcome =
  | { kind: "delivered"; status: number }
  | { kind: "gone"; status: 410 }
  | { kind: "failed"; status: number | null; error: string };

export type SenderOptions = {
  policy: UrlPolicy;
  timeoutMs: number;
  resolver?: HostResolver;
  userAgent?: string;
};

const MAX_AGENTS = 256;
const ERROR_BODY_CHARS = 200;
// Bodies past this size are not worth draining; the socket is dropped instead of kept alive.
const MAX_DRAIN_BYTES = 64 * 1024;
const IDLE_SOCKET_MS = 4000;

/** The receiver closed a pooled socket as it was reused, before anything was answered. */
class StaleSocketError extends Error {
  readonly code: string | undefined;
  constructor(cause: NodeJS.ErrnoException) {
    super(cause.message);
    this.code = cause.code;
  }
}

export class WebhookSender {
  // Keep-alive pools keyed by protocol and checked address: a pooled socket always goes to an address that passed
  // the guard, whatever the host name resolves to later.
  private readonly agents = new Map<string, http.Agent>();
  // Checks of URLs whose host is an IP literal: a pure function of the URL and the policy, so worth keeping.
  // Names are resolved and checked again on every attempt, since their DNS answers can change.
  private readonly literalChecks = new Map<string, Destination>();

  constructor(private readonly options: SenderOptions) {}

  /**
   * POSTs `body`; never throws, never takes longer than the timeout (DNS included). `onAbortable` receives a
   * function that cuts the attempt short (shutdown); the attempt then reports that reason as its failure.
   */
  async post(
    rawUrl: string,
    body: string,
    headers: Record<string, string>,
    onAbortable?: (abort: (reason: Error) => void) => void,
  ): Promise<SendOutcome> {
    // A timer and a destroy() rather than an AbortSignal per request: signals cost more than the request here.
    let aborted: Error | undefined;
    let stop: ((reason: Error) => void) | undefined;
    const abort = (reason: Error) => {
      if (aborted) return;
      aborted = reason;
      stop?.(reason);
    };
    const timer = setTimeout(() => abort(new Error(`timed out after ${this.options.timeoutMs / 1000} s`)), this.options.timeoutMs);
    onAbortable?.(abort);
    try {
      const destination = await new Promise<Destination>((resolve, reject) => {
        stop = reject;
        const known = this.literalChecks.get(rawUrl);
        if (known) return resolve(known);
        resolveDestination(rawUrl, this.options.policy, this.options.resolver).then((checked) => {
          if (checked.address === checked.hostname) {
            if (this.literalChecks.size >= MAX_AGENTS) this.literalChecks.clear();
            this.literalChecks.set(rawUrl, checked);
          }
          resolve(checked);
        }, reject);
      });
      if (aborted) throw aborted;
      try {
        return await this.request(destination, body, headers, (destroy) => (stop = destroy));
      } catch (error) {
        // A kept-alive socket the receiver closed as we reused it (its keep-alive time-out, a restart): almost always
        // the request never reached it, so it goes once more on a new connection outside the pool, whose other idle
        // sockets may be closed too (Node's documented pattern). Should the receiver have read it and then closed
        // without answering, it gets the body twice under one webhook-id, which receivers drop as a duplicate.
        if (aborted || !(error instanceof StaleSocketError)) throw error;
        return await this.request(destination, body, headers, (destroy) => (stop = destroy), true);
      }
    } catch (error) {
      if (error instanceof UrlRefusedError) return { kind: "failed", status: null, error: `refused by the SSRF guard: URL ${error.problem}` };
      return { kind: "failed", status: null, error: describe(aborted ?? error) };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private request(
    destination: Destination,
    body: string,
    headers: Record<string, string>,
    onStarted: (destroy: (reason: Error) => void) => void,
    unpooled = false,
  ): Promise<SendOutcome> {
    const { url, hostname, address, family } = destination;
    const secure = url.protocol === "https:";
    const pinned: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
      else callback(null, address, family);
    };
    return new Promise<SendOutcome>((resolve, reject) => {
      const options: https.RequestOptions = {
        method: "POST",
        protocol: url.protocol,
        hostname,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        agent: unpooled ? false : this.agentFor(secure, address),
        lookup: pinned,
        ...(secure && !isIp(hostname) ? { servername: hostname } : {}),
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body, "utf8")),
          "user-agent": this.options.userAgent ?? "PassportRegistry-Webhooks/1.0",
        },
      };
      let responded = false;
      const req = (secure ? https : http).request(options, (res) => {
        responded = true;
        const status = res.statusCode ?? 0;
        res.once("error", () => undefined);
        // 'close' follows 'end', and also comes when the receiver answers and then drops the body: the status decides.
        if (status >= 200 && status < 300) {
          res.once("close", () => resolve({ kind: "delivered", status }));
          res.resume();
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received <= ERROR_BODY_CHARS * 4) chunks.push(chunk);
          if (received > MAX_DRAIN_BYTES) res.destroy();
        });
        res.once("close", () => {
          if (status === 410) return resolve({ kind: "gone", status: 410 });
          const text = Buffer.concat(chunks).toString("utf8").replace(/\s+/g, " ").trim().slice(0, ERROR_BODY_CHARS);
          const what = status >= 300 && status < 400 ? `redirect not followed (Location: ${String(res.headers.location ?? "none").slice(0, 200)})` : text;
          resolve({ kind: "failed", status, error: `HTTP ${status}${what ? `: ${what}` : ""}` });
        });
      });
      onStarted((reason) => req.destroy(reason));
      req.once("error", (error: NodeJS.ErrnoException) => {
        const stale = req.reusedSocket && !responded && (error.code === "ECONNRESET" || error.code === "EPIPE");
        reject(stale ? new StaleSocketError(error) : error);
      });
      // A string body goes out in one write with the headers (a Buffer would take a second one).
      req.end(body, "utf8");
    });
  }

  private agentFor(secure: boolean, address: string): http.Agent {
    const key = `${secure ? "https" : "http"}|${address}`;
    let agent = this.agents.get(key);
    if (agent) {
      // Map order is insertion order: re-inserting keeps the most recently used last.
      this.agents.delete(key);
      this.agents.set(key, agent);
      return agent;
    }
    // An idle socket is dropped after 4 s, before the usual 5 s server keep-alive (Node's default), and sooner when the
    // receiver's Keep-Alive header asks: Node applies that hint only when the agent has a timeout.
    const pool = { keepAlive: true, maxSockets: 64, timeout: IDLE_SOCKET_MS };
    agent = secure ? new https.Agent(pool) : new http.Agent(pool);
    this.agents.set(key, agent);
    if (this.agents.size > MAX_AGENTS) {
      const [oldest, evicted] = this.agents.entries().next().value as [string, http.Agent];
      this.agents.delete(oldest);
      evicted.destroy();
    }
    return agent;
  }
}

function isIp(hostname: string): boolean {
  return /^[0-9.]+$/.test(hostname) || hostname.includes(":");
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  return (code && !message.includes(code) ? `${code}: ${message}` : message).slice(0, 300);
}
