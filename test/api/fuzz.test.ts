// Fuzz tests of every public endpoint and factory write: thousands of malformed requests, never a 5xx, always the envelope.
import http from "node:http";
import { expect } from "chai";
import fc from "fast-check";
import { loginBody } from "../../api/src/routes/auth/schemas";
import { CERTIFICATION_CODES } from "../../api/src/factories/reputation";
import { assignTagBody, mintBody, registerFactoryBody, supplyChainEventBody } from "../../api/src/routes/operations/schemas";
import { compile, type JsonSchema } from "../../api/src/validation";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";

/** Requests per endpoint (and per token mode of the factory writes), sent BATCH at a time. */
const BATCH = 16;
const RUNS = Math.ceil(1000 / BATCH);
const BODY_LIMIT = 64 * 1024;
/** Node answers 431 by itself past 16 KiB of request line and headers; the generators stay under it. */
const MAX_PATH = 4000;
/** `FUZZ_SEED=<seed>` replays a failing run; the failure message names the seed. */
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** UIDs of this shape exist nowhere: a schema-valid write naming one ends in 404 (or 403), never on chain. */
const UNKNOWN_PREFIX = "FZ";

/** The error codes of docs/api-conventions.md with their HTTP status. */
const ERROR_STATUS: Record<string, number> = {
  MISSING_KEY: 401,
  INVALID_KEY: 401,
  BRAND_INACTIVE: 403,
  NOT_FOUND: 404,
  VALIDATION_ERROR: 422,
  RATE_LIMIT: 429,
  MONTHLY_LIMIT_REACHED: 429,
  SERVER_ERROR: 500,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SERVICE_UNAVAILABLE: 503,
  // docs/access.md: a reader credential on a passport read that fails.
  READER_KEY_INVALID: 401,
  CREDENTIAL_INVALID: 401,
  CREDENTIAL_EXPIRED: 401,
  CREDENTIAL_AUDIENCE: 401,
  CREDENTIAL_UNTRUSTED_ISSUER: 401,
  ACCESS_CLASS_REQUIRED: 403,
  ACCESS_LEGAL_MINIMUM: 422,
};

type FuzzRequest = {
  method: string;
  /** Sent verbatim as the request target: no normalisation of `..`, `%2F` or bad percent-encoding. */
  path: string;
  headers: Record<string, string | string[]>;
  body: Buffer | undefined;
  /** Transfer-Encoding: chunked instead of Content-Length. */
  chunked: boolean;
  /** The one status this request must get, when it is built to reach a particular check. */
  expected?: number;
};

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string };

// ---------------------------------------------------------------------------------------------------------------
// Sending and judging

function send(base: URL, agent: http.Agent, request: FuzzRequest, retry = true): Promise<Answer | { failure: string }> {
  return new Promise((resolve) => {
    const headers: http.OutgoingHttpHeaders = { ...request.headers };
    if (request.body !== undefined) {
      if (request.chunked) headers["Transfer-Encoding"] = "chunked";
      else headers["Content-Length"] = request.body.length;
    }
    // The API may stop reading an oversize body and drop the connection; such a request gets a connection of its own.
    const oversize = (request.body?.length ?? 0) > BODY_LIMIT;
    const options: http.RequestOptions = {
      host: base.hostname,
      port: base.port,
      method: request.method,
      path: request.path,
      headers,
      agent: oversize ? false : agent,
      timeout: 30_000,
    };
    let responded = false;
    const onResponse = (res: http.IncomingMessage) => {
      responded = true;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (error) => resolve({ failure: `the response broke off: ${error.message}` }));
    };
    let req: http.ClientRequest;
    try {
      req = http.request(options, onResponse);
    } catch (error) {
      resolve({ failure: `not sendable, a generator defect: ${(error as Error).message}` });
      return;
    }
    req.on("timeout", () => req.destroy(new Error("no answer within 30 s")));
    req.on("error", (error: NodeJS.ErrnoException) => {
      // Writing the rest of a refused body can fail once the answer is in; the answer is what counts.
      if (responded) return;
      // A kept-alive socket the server closed just as it was reused: the retry Node's documentation prescribes.
      if (retry && req.reusedSocket && error.code === "ECONNRESET") resolve(send(base, agent, request, false));
      else resolve({ failure: `no answer: ${error.message}` });
    });
    if (request.body === undefined) {
      req.end();
    } else if (request.chunked) {
      const half = Math.floor(request.body.length / 2);
      req.write(request.body.subarray(0, half));
      req.end(request.body.subarray(half));
    } else {
      req.end(request.body);
    }
  });
}

type Rules = {
  /** A POST here must never succeed: every generated body is invalid, names an unknown UID or lacks the right. */
  neverAccepted: boolean;
};

/** What is wrong with the answer to `request`, or undefined. */
function problemWith(request: FuzzRequest, answer: Answer | { failure: string }, rules: Rules): string | undefined {
  if ("failure" in answer) return answer.failure;
  const { status } = answer;
  if (status >= 500) return `HTTP ${status}: ${answer.text.slice(0, 400)}`;
  const requestId = answer.headers["x-request-id"];
  // Node's own parser answers some requests before Koa sees them; a generator must not produce those.
  if (typeof requestId !== "string" || requestId === "") return `HTTP ${status} without X-Request-Id: not answered by the API`;
  if (rules.neverAccepted && request.method === "POST" && status < 300) return `HTTP ${status}: a request that must fail was accepted`;
  if (request.expected !== undefined && status !== request.expected) return `HTTP ${status} where ${request.expected} was due: ${answer.text.slice(0, 300)}`;
  if (status < 400 || request.method === "HEAD") return undefined;
  return envelopeProblem(answer, requestId);
}

function envelopeProblem(answer: Answer, requestId: string): string | undefined {
  const { status } = answer;
  if (!/^application\/json/.test(answer.headers["content-type"] ?? "")) return `HTTP ${status} error is not JSON (${answer.headers["content-type"]})`;
  let body: { success?: unknown; error?: { code?: unknown; message?: unknown; request_id?: unknown; details?: unknown } };
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `HTTP ${status} error body does not parse: ${answer.text.slice(0, 200)}`;
  }
  const error = body?.error;
  if (body?.success !== false || typeof error !== "object" || error === null) return `HTTP ${status} without the error envelope: ${answer.text.slice(0, 200)}`;
  if (typeof error.code !== "string" || !(error.code in ERROR_STATUS)) return `HTTP ${status} with a code not in docs/api-conventions.md: ${String(error.code)}`;
  if (ERROR_STATUS[error.code] !== status) return `${error.code} answered with HTTP ${status}, not ${ERROR_STATUS[error.code]}`;
  if (typeof error.message !== "string" || error.message === "") return `HTTP ${status} ${error.code} without a message`;
  if (error.request_id !== requestId) return `request_id ${String(error.request_id)} differs from X-Request-Id ${requestId}`;
  const details = error.details;
  if (details !== undefined) {
    const wellFormed =
      Array.isArray(details) &&
      details.every((d: { field?: unknown; problem?: unknown }) => typeof d?.field === "string" && typeof d?.problem === "string");
    if (!wellFormed) return `HTTP ${status} with malformed details: ${JSON.stringify(details).slice(0, 200)}`;
  }
  return undefined;
}

function describeRequest(r: FuzzRequest): string {
  const clip = (s: string, n: number) => (s.length > n ? `${JSON.stringify(s.slice(0, n))}… (${s.length} chars)` : JSON.stringify(s));
  const headers = Object.entries(r.headers)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? `[${value.map((v) => clip(v, 60)).join(", ")}]` : clip(value, 80)}`)
    .join("; ");
  const body = r.body === undefined ? "none" : `${clip(r.body.toString("utf8"), 200)} (${r.body.length} bytes${r.chunked ? ", chunked" : ""})`;
  return `${r.method} ${clip(r.path, 200)}\n      headers {${headers}}\n      body ${body}`;
}

/** Statuses seen; a 404 of the router (no route matched) and answers to HEAD (no body to tell) count apart. */
type Tally = { sent: number; statuses: Map<string, number> };

const NO_ROUTE = "404 no route";

function tallyKey(request: FuzzRequest, answer: Answer | { failure: string }): string {
  if ("failure" in answer) return "no answer";
  if (request.method === "HEAD") return `HEAD ${answer.status}`;
  return answer.status === 404 && answer.text.includes('"No such route."') ? NO_ROUTE : String(answer.status);
}

function formatTally(tally: Tally): string {
  const statuses = [...tally.statuses.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status}×${n}`);
  return `${tally.sent} requests: ${statuses.join(" ")}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Generators: request pieces

const char = (min: number, max: number) => fc.integer({ min, max }).map((code) => String.fromCharCode(code));
/** What a client may put in a header value: visible ASCII, space, tab and Latin-1 bytes (Node refuses the rest). */
const headerChar = fc.oneof({ weight: 8, arbitrary: char(0x20, 0x7e) }, { weight: 1, arbitrary: char(0x80, 0xff) }, { weight: 1, arbitrary: fc.constant("\t") });
const headerValue = (maxLength: number) => fc.string({ unit: headerChar, maxLength });
/** Raw request-target characters that reach the app; Node's parser refuses anything else with its own 400. */
const pathChar = char(0x21, 0x7e);

/** Percent-encodes the UTF-8 of `text`, as a browser would (a lone surrogate goes out as U+FFFD). */
function encodeSegment(text: string): string {
  return [...Buffer.from(text, "utf8")]
    .map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`))
    .join("");
}

const BAD_SEGMENTS = [
  "", ".", "..", "...", "%2e", "%2e%2e", "%2E%2E%2F", "..%2F..%2Fstats", "..%2f..%2f..%2fetc%2fpasswd", "%2F", "%2f", "a%2Fb",
  "%5C", "..%5C..", "%252F", "%00", "DEMO-%00ABCD", "%00DEMO-ABCD", "DEMO%00-ABCD", "1001%00", "%", "%%", "%G1", "%E0%A4%A",
  "%C0%AE%C0%AE", "%C0%AF", "%FF", "%FE%FF", "%ED%A0%80", "%F4%90%80%80", "%C3%28", "%EF%BB%BF", "DEMO-ABCD%0A",
  "DEMO-ABCD%0D%0ASet-Cookie:%20x=1", "%20", "+", "DEMO-ABCD;x=1", "DEMO-ABCD.json", "*", "~", "null", "undefined",
  "[object%20Object]", "__proto__", "constructor", "prototype", "hasOwnProperty", "%7B%7D", "'OR'1'='1", "1;DROP%20TABLE%20x",
  "$(id)", "{{7*7}}", "<script>", "DEMO-ABCD\\..\\x", "%u0041", "&#65;",
];

const NUMBERISH = [
  "-1", "0", "-0", "+1", "00001001", "1e3", "1e309", "0x3E9", "0b1", "0o7", "1.5", "1,5", "1_000", "Infinity", "-Infinity",
  "NaN", "9007199254740993", "18446744073709551616", "999999999999999", "9999999999999999", "1000000000", "%201", "1%20",
  "%EF%BC%91", "%D9%A1", "1001.0", "1001e0", "true", "[]", "1001abc",
];
const numberish = fc.oneof(
  fc.constantFrom(...NUMBERISH),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.double().map(String),
  fc.integer().map(String),
);

const alnum = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`));
/** UIDs that nearly match `<PREFIX>-<CODE>`: lengths off by one, wrong separator, non-ASCII letters. */
const nearMissUid = fc.oneof(
  fc.tuple(alnum(0, 1), alnum(4, 32)).map(([p, c]) => `${p}-${c}`),
  fc.tuple(alnum(11, 14), alnum(4, 32)).map(([p, c]) => `${p}-${c}`),
  fc.tuple(alnum(2, 10), alnum(0, 3)).map(([p, c]) => `${p}-${c}`),
  fc.tuple(alnum(2, 10), alnum(33, 40)).map(([p, c]) => `${p}-${c}`),
  fc.tuple(alnum(2, 10), fc.constantFrom("_", "--", "%2D", "", "%E2%80%90", ".", "%20"), alnum(4, 32)).map(([p, s, c]) => `${p}${s}${c}`),
  fc.tuple(alnum(2, 10), fc.string({ unit: "grapheme", minLength: 4, maxLength: 12 })).map(([p, c]) => `${p}-${encodeSegment(c)}`),
);
/** Well-formed and certainly unknown. */
const unknownUid = fc.stringMatching(/^[A-Z0-9]{8,24}$/).map((code) => `${UNKNOWN_PREFIX}-${code}`);

const hostileSegment = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }).map(encodeSegment) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }).map(encodeSegment) },
  { weight: 2, arbitrary: fc.string({ unit: pathChar, maxLength: 60 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("A", "9", "%41", "%C3%A9", "DEMO-", "..%2F", "%00", "0", "%F0%9F%92%A9"), fc.integer({ min: 10, max: 1500 }))
      .map(([s, n]) => s.repeat(n).slice(0, 3000)),
  },
  { weight: 3, arbitrary: fc.constantFrom(...BAD_SEGMENTS) },
  { weight: 2, arbitrary: numberish },
  { weight: 3, arbitrary: nearMissUid },
);
const queryString = fc.string({ unit: pathChar, maxLength: 200 });

/** `${prefix}<segment>${suffix}` in the shapes a hostile client sends: extra segments, queries, case, slashes. */
function pathsAround(prefix: string, suffix: string, ...good: Array<fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const segment = fc.oneof({ weight: 6, arbitrary: hostileSegment }, ...good.map((arbitrary) => ({ weight: 3, arbitrary })));
  return fc.oneof(
    { weight: 12, arbitrary: segment.map((s) => `${prefix}${s}${suffix}`) },
    { weight: 1, arbitrary: fc.tuple(segment, segment).map(([a, b]) => `${prefix}${a}/${b}${suffix}`) },
    { weight: 2, arbitrary: fc.tuple(segment, queryString).map(([s, q]) => `${prefix}${s}${suffix}?${q}`) },
    { weight: 1, arbitrary: segment.map((s) => `${prefix}${s}${suffix}/`) },
    { weight: 1, arbitrary: segment.map((s) => `${prefix.toUpperCase()}${s}${suffix.toUpperCase()}`) },
    { weight: 1, arbitrary: segment.map((s) => `${prefix.replace(/\//g, "//")}${s}${suffix}`) },
  );
}

/** A fixed path, mostly as is, sometimes with a hostile tail, query or spelling. */
function pathsOf(path: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(path) },
    { weight: 2, arbitrary: queryString.map((q) => `${path}?${q}`) },
    { weight: 2, arbitrary: hostileSegment.map((s) => `${path}/${s}`) },
    { weight: 1, arbitrary: hostileSegment.map((s) => `${path}${s}`) },
    { weight: 1, arbitrary: fc.constantFrom(`${path}/`, path.toUpperCase(), path.replace(/\//g, "//"), `${path}%2F`, `${path}/..`, `${path}/.`, `${path}#x`, `${path};a=b`, `/./${path.slice(1)}`, `/x/..${path}`) },
  );
}

const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "PROPFIND", "MKCOL", "SEARCH", "PURGE", "LOCK", "COPY", "MOVE", "REPORT"];
const methodAround = (method: string) => fc.oneof({ weight: 12, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) });

const contentType = fc.oneof(
  { weight: 10, arbitrary: fc.constant<string | string[] | undefined>("application/json") },
  {
    weight: 4,
    arbitrary: fc.constantFrom<string | string[] | undefined>(
      "application/json; charset=utf-8", "APPLICATION/JSON", "application/json;charset=latin1", "application/json; charset=utf-16le",
      "application/json ; foo=bar", "text/plain", "text/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=----x",
      "application/merge-patch+json", "application/json-seq", "application/jsonx", "application/xml", "*/*", "application/*", "json", "",
      ";", "application/json, text/plain", 'application/json; charset="utf-8', "application/json; boundary=", "application/json; q=",
    ),
  },
  { weight: 1, arbitrary: headerValue(600) },
  // Duplicate header lines: Node keeps the first Content-Type.
  { weight: 1, arbitrary: fc.constantFrom<string | string[] | undefined>(["application/json", "text/plain"], ["text/plain", "application/json"]) },
  { weight: 2, arbitrary: fc.constant(undefined) },
);

/** Headers every request may carry besides Authorization and Content-Type; arrays are repeated header lines. */
const extraHeaders = fc.dictionary(
  fc.constantFrom(
    "X-Request-Id", "Accept", "Accept-Encoding", "Accept-Language", "If-None-Match", "If-Modified-Since", "X-Forwarded-For",
    "X-Forwarded-Proto", "X-Forwarded-Host", "X-Real-IP", "Origin", "Referer", "Cookie", "Range", "X-HTTP-Method-Override",
    "Content-Encoding", "User-Agent", "X-Service-Brand",
  ),
  fc.oneof(
    { weight: 4, arbitrary: headerValue(300) },
    { weight: 1, arbitrary: fc.array(headerValue(100), { minLength: 2, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9._:-]{8,128}$/) },
  ),
  { maxKeys: 4 },
);

const anonymousAuthorization: fc.Arbitrary<string | string[] | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "", "Bearer", "Bearer ", "bearer", "Bearer  ", "Basic dXNlcjpwYXNz", "Token abc", "Bearer prs_", "Bearer null", "Bearer undefined",
      "Bearer \t", "Digest username=x", "Bearer a b", "Bearer,Bearer", "Bearer prs_../../x", "Bearer %00",
    ),
  },
  { weight: 2, arbitrary: headerValue(200).map((v) => `Bearer ${v}`) },
  // Well-formed and forged.
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((v) => `Bearer prs_${v}`) },
  // Huge, yet under Node's 16 KiB header limit.
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 8000 }).map((n) => `Bearer ${"A".repeat(n)}`) },
  { weight: 1, arbitrary: headerValue(300) },
  { weight: 1, arbitrary: fc.array(headerValue(100).map((v) => `Bearer ${v}`), { minLength: 2, maxLength: 3 }) },
);

function operatorAuthorization(token: string): fc.Arbitrary<string | string[] | undefined> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(`Bearer ${token}`, `bearer ${token}`, `BEARER  ${token}`, `Bearer\t${token}`) },
    // Repeated: Node keeps the first line.
    { weight: 1, arbitrary: fc.constantFrom<string[]>([`Bearer ${token}`, "Bearer forged"], ["Bearer forged", `Bearer ${token}`]) },
    { weight: 1, arbitrary: anonymousAuthorization },
  );
}

type Shape = {
  method: string;
  path: fc.Arbitrary<string>;
  body: fc.Arbitrary<Buffer | undefined>;
  authorization: fc.Arbitrary<string | string[] | undefined>;
};

function requestsFor(shape: Shape): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: methodAround(shape.method),
      path: shape.path,
      authorization: shape.authorization,
      contentType,
      extra: extraHeaders,
      body: shape.body,
      chunked: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    })
    .map(({ method, path, authorization, contentType, extra, body, chunked }) => {
      const headers: Record<string, string | string[]> = { ...extra };
      if (authorization !== undefined) headers.Authorization = authorization;
      if (contentType !== undefined) headers["Content-Type"] = contentType;
      return { method, path: path.slice(0, MAX_PATH), headers, body, chunked: chunked && body !== undefined };
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Generators: bodies

const POLLUTION = [
  '"__proto__":{"fuzzPolluted":true}',
  '"constructor":{"prototype":{"fuzzPolluted":true}}',
  '"__proto__":null',
  '"prototype":{"fuzzPolluted":true}',
  '"__proto__":[1]',
  '"hasOwnProperty":"x"',
  '"toString":1',
  '"valueOf":{}',
];

const NOT_JSON = [
  "", " ", "null", "true", "false", "0", "-1", "1e999", "-1e999", '"x"', '""', "[]", "{}", "{", "}", "[", "]", '{"a":}', '{"a" 1}',
  "{'a':1}", '{"a":1,}', "[1,]", '{"a":1} {"b":2}', '{"a":1}}', "NaN", "undefined", "\uFEFF{}", "/* c */{}", '{"a":1}//',
  '{"a":"\\x41"}', '{"a":"\\u00"}', '{"a":01}', '{"a":.5}', '{"a":+1}', '{"a":0x10}', '{"a":Infinity}', '{"a":"\t"}', '{"a":"\n"}',
  "a=1&b=2", "<xml/>", "--x\r\nContent-Disposition: form-data\r\n\r\n", "\u0000", "{\u0000}",
];

/** Strings a store may refuse or mangle: NUL, lone surrogates, bidi overrides, BOMs, astral characters. */
const hostileText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.constantFrom("\u0000", "\ud800", "\udfff", "a\u0000b", "\u202e", "\ufeff", "💩".repeat(10), "\u0000".repeat(50), "\udc00\ud800", " ", "\t\n"),
);

/** Text Postgres cannot store (NUL, always there) and cannot keep in jsonb (lone surrogates); at most 32 characters. */
const unstorableText = fc
  .tuple(fc.string({ maxLength: 15 }), fc.constantFrom("\u0000", "\u0000\ud800", "\udbff\u0000", "\u0000\udc00"), fc.string({ maxLength: 15 }))
  .map(([before, bad, after]) => `${before}${bad}${after}`);

/** Generators build the requests that reach the service with unstorable text; this guards their construction. */
function withNul(request: FuzzRequest): FuzzRequest {
  if (!request.body!.toString("utf8").includes("\\u0000")) throw new Error(`generator defect: no NUL in ${describeRequest(request)}`);
  return request;
}

function withRawMember(jsonText: string, member: string): string {
  return jsonText === "{}" ? `{${member}}` : `{${member},${jsonText.slice(1)}`;
}

const deepArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/**
 * Malformed bodies around `template` (plausible objects of the endpoint): truncated, wrong types, deep, huge, not
 * objects, not JSON, polluting keys, duplicate keys, invalid UTF-8, hostile strings. `valid` adds schema-valid bodies
 * that exercise the service layer.
 */
function bodiesAround(
  template: fc.Arbitrary<Record<string, unknown>>,
  fields: string[],
  arrayFields: string[],
  valid?: fc.Arbitrary<Record<string, unknown>>,
): fc.Arbitrary<Buffer> {
  const text: Array<fc.WeightedArbitrary<string>> = [
    { weight: 2, arbitrary: fc.tuple(template, fc.double({ min: 0, max: 1, noNaN: true })).map(([o, share]) => { const s = JSON.stringify(o); return s.slice(0, Math.min(s.length - 1, Math.floor(share * s.length))); }) },
    { weight: 3, arbitrary: fc.record(Object.fromEntries(fields.map((f) => [f, fc.jsonValue({ maxDepth: 3 })])), { requiredKeys: [] }).map((o) => JSON.stringify(o)) },
    { weight: 2, arbitrary: fc.tuple(template, fc.constantFrom(...POLLUTION)).map(([o, member]) => withRawMember(JSON.stringify(o), member)) },
    { weight: 1, arbitrary: fc.array(template, { maxLength: 3 }).map((a) => JSON.stringify(a)) },
    { weight: 2, arbitrary: fc.constantFrom(...NOT_JSON) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.oneof(fc.integer({ min: 1, max: 3000 }), fc.constant(Number.MAX_SAFE_INTEGER)), fc.constantFrom<string | undefined>(undefined, ...fields), fc.constantFrom("array", "object"))
        .map(([depth, field, shape]) => {
          // As deep as fits under the body limit when depth is "max".
          const value = shape === "array" ? deepArray(Math.min(depth, Math.floor((BODY_LIMIT - 100) / 2))) : deepObject(Math.min(depth, Math.floor((BODY_LIMIT - 100) / 6)));
          return field === undefined ? value : `{"${field}":${value}}`;
        }),
    },
    {
      // Two equal deep arrays in an array field: a uniqueItems check compares them element by element.
      weight: 1,
      arbitrary: fc
        .tuple(fc.oneof(fc.integer({ min: 1, max: 3000 }), fc.constant(Number.MAX_SAFE_INTEGER)), fc.constantFrom(...(arrayFields.length > 0 ? arrayFields : fields)))
        .map(([depth, field]) => {
          const d = Math.min(depth, Math.floor((BODY_LIMIT - 100) / 4));
          return `{"${field}":[${deepArray(d)},${deepArray(d)}]}`;
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...fields), fc.oneof(fc.integer({ min: BODY_LIMIT + 1, max: 3 * BODY_LIMIT }), fc.integer({ min: 60_000, max: BODY_LIMIT - 100 })))
        .map(([field, n]) => `{"${field}":"${"x".repeat(n)}"}`),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(template, fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 2 })).map(([o, field, v]) => {
        const s = JSON.stringify(o);
        const member = `"${field}":${JSON.stringify(v)}`;
        return s === "{}" ? `{${member}}` : `${s.slice(0, -1)},${member}}`;
      }),
    },
    { weight: 2, arbitrary: fc.record(Object.fromEntries(fields.map((f) => [f, hostileText])), { requiredKeys: [] }).map((o) => JSON.stringify(o)) },
  ];
  if (valid) text.push({ weight: 5, arbitrary: valid.map((o) => JSON.stringify(o)) });
  const bytes: Array<fc.WeightedArbitrary<Buffer>> = [
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)) },
    {
      // Invalid UTF-8 inside a string value.
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...fields), fc.uint8Array({ minLength: 1, maxLength: 12 }))
        .map(([field, raw]) => Buffer.concat([Buffer.from(`{"${field}":"`), Buffer.from(raw.map((b) => b | 0x80)), Buffer.from('"}')])),
    },
  ];
  return fc.oneof(...text.map(({ weight, arbitrary }) => ({ weight, arbitrary: arbitrary.map((s) => Buffer.from(s, "utf8")) })), ...bytes);
}

/** Bodies for GET endpoints: almost always none. */
const rareBody = fc.oneof(
  { weight: 9, arbitrary: fc.constant<Buffer | undefined>(undefined) },
  { weight: 1, arbitrary: bodiesAround(fc.constant({}), ["a"], []).map((b): Buffer | undefined => b) },
);

const optionalBody = (bodies: fc.Arbitrary<Buffer>) => fc.oneof({ weight: 12, arbitrary: bodies.map((b): Buffer | undefined => b) }, { weight: 1, arbitrary: fc.constant(undefined) });

/** True when `body` is JSON that passes `check`: with a valid token, such a body could change state. */
function passes(check: (data: unknown) => boolean, body: Buffer | undefined): boolean {
  if (body === undefined) return false;
  try {
    return check(JSON.parse(body.toString("utf8")));
  } catch {
    return false;
  }
}

function namesUnknownUid(body: Buffer | undefined): boolean {
  try {
    const uid = (JSON.parse(body!.toString("utf8")) as { uid?: unknown }).uid;
    return typeof uid === "string" && uid.toUpperCase().startsWith(`${UNKNOWN_PREFIX}-`);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------

describe("fuzzing the public endpoints and factory writes", () => {
  let stack: SeededStack;
  let base: URL;
  let agent: http.Agent;
  let operator: { token: string; factoryId: number };
  let adminToken: string;
  /** A minted demo product made by the operator's factory: past every check but the body's own. */
  let ownMintedUid: string;
  let baseline: { nonce: number; rows: Record<string, number> };

  const seededUids = () => stack.demo.products.map((p) => p.uid);
  const anyCase = (values: string[]) =>
    fc.tuple(fc.constantFrom(...values), fc.nat()).map(([value, mask]) => [...value].map((c, i) => ((mask >> (i % 31)) & 1 ? c.toLowerCase() : c)).join(""));

  async function login(who: "operator" | "admin") {
    const res = await fetch(`${base.origin}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(stack.demo[who]),
    });
    expect(res.status).to.equal(200);
    return json(res);
  }

  async function traces() {
    const nonce = await stack.wallet.wallet.provider!.getTransactionCount(stack.wallet.address, "pending");
    const { rows } = await stack.api.db.raw<{ rows: Array<Record<string, number>> }>(`
      SELECT (SELECT count(*) FROM app.products) AS products,
             (SELECT count(*) FROM app.passports) AS passports,
             (SELECT count(*) FROM app.factory_profiles) AS factory_profiles,
             (SELECT count(*) FROM app.supply_chain_details) AS supply_chain_details`);
    return { nonce, rows: rows[0]! };
  }

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = new URL(stack.api.url);
    agent = new http.Agent({ keepAlive: true, maxSockets: BATCH });
    const operatorLogin = await login("operator");
    operator = { token: operatorLogin.token, factoryId: operatorLogin.operator.factory_id };
    adminToken = (await login("admin")).token;
    for (const product of stack.demo.products.filter((p) => p.minted)) {
      const record = await json(await fetch(`${base.origin}/api/dpp/${product.uid}`));
      if (record.manufacturer?.factory_id === operator.factoryId) ownMintedUid = product.uid;
    }
    expect(ownMintedUid, "a minted demo product of the operator's factory").to.be.a("string");
    baseline = await traces();
  });

  after(() => agent?.destroy());

  /** Sends RUNS batches of BATCH requests; fails on the first answer that breaks the rules, naming the request. */
  async function fuzz(label: string, requests: fc.Arbitrary<FuzzRequest>, rules: Rules, expected: Array<number | typeof NO_ROUTE>): Promise<Tally> {
    const tally: Tally = { sent: 0, statuses: new Map() };
    await fc.assert(
      fc.asyncProperty(fc.array(requests, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const answers = await Promise.all(batch.map((request) => send(base, agent, request)));
        const problems: string[] = [];
        batch.forEach((request, i) => {
          const answer = answers[i]!;
          tally.sent += 1;
          const key = tallyKey(request, answer);
          tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1);
          const problem = problemWith(request, answer, rules);
          if (problem) problems.push(`${problem}\n      ${describeRequest(request)}`);
        });
        if (problems.length > 0) throw new Error(`${problems.length} of ${batch.length} answers break the rules:\n    ${problems.slice(0, 3).join("\n    ")}`);
      }),
      {
        numRuns: RUNS,
        seed: SEED,
        // Each request is judged on its own and named in the message; shrinking whole batches would only cost time.
        endOnFailure: true,
        reporter: (run) => {
          if (!run.failed) return;
          const cause = run.errorInstance instanceof Error ? run.errorInstance.message : String(run.errorInstance);
          throw new Error(`${label}: ${cause}\n  replay with FUZZ_SEED=${run.seed}`);
        },
      },
    );
    console.log(`      ${label}: ${formatTally(tally)}`);
    expect(tally.sent).to.be.at.least(1000);
    // The generators must reach every layer: routing, body parsing, validation and the service behind it.
    expect([...tally.statuses.keys()], `statuses seen for ${label}`).to.include.members(expected.map(String));
    return tally;
  }

  it("GET /api/dpp/:uid", async function () {
    this.timeout(180_000);
    const requests = requestsFor({
      method: "GET",
      path: pathsAround("/api/dpp/", "", anyCase(seededUids()), unknownUid),
      body: rareBody,
      authorization: anonymousAuthorization,
    });
    await fuzz("GET /api/dpp/:uid", requests, { neverAccepted: false }, [200, 404, 405, 422]);
  });

  it("GET /api/factory/:id/reputation", async function () {
    this.timeout(180_000);
    const ids = stack.demo.factory_ids.map(String);
    const requests = requestsFor({
      method: "GET",
      path: pathsAround("/api/factory/", "/reputation", fc.constantFrom(...ids), fc.integer({ min: 0, max: 999_999_999 }).map(String), fc.stringMatching(/^[0-9]{10,15}$/)),
      body: rareBody,
      authorization: anonymousAuthorization,
    });
    await fuzz("GET /api/factory/:id/reputation", requests, { neverAccepted: false }, [200, 404, 405, 422]);
  });

  it("POST /api/marketplace/match", async function () {
    this.timeout(180_000);
    const certifications = fc.subarray(["GOTS", "OEKO-TEX", "ISO9001"]);
    const template = fc.record(
      {
        rfq: fc.oneof(fc.string({ unit: "grapheme", maxLength: 120 }), fc.constantFrom("   ", "\u0000\u0000\u0000", "tees")),
        quantity: fc.oneof(fc.integer({ min: -5, max: 20_000_000 }), fc.double(), fc.constant(null)),
        certifications: fc.oneof(fc.subarray(["GOTS", "OEKO-TEX", "ISO9001", "GRS", "gots", ""]), fc.constant(["GOTS", "GOTS"])),
      },
      { requiredKeys: [] },
    );
    const valid = fc.record(
      {
        rfq: fc.oneof(fc.string({ unit: "grapheme", minLength: 3, maxLength: 300 }), fc.string({ unit: "binary", minLength: 3, maxLength: 300 }), fc.constant("     ")),
        quantity: fc.integer({ min: 1, max: 10_000_000 }),
        certifications,
      },
      { requiredKeys: ["rfq"] },
    );
    const requests = requestsFor({
      method: "POST",
      path: pathsOf("/api/marketplace/match"),
      body: optionalBody(bodiesAround(template, ["rfq", "quantity", "certifications"], ["certifications"], valid)),
      authorization: anonymousAuthorization,
    });
    await fuzz("POST /api/marketplace/match", requests, { neverAccepted: false }, [200, 405, 413, 415, 422]);
  });

  it("GET /api/stats", async function () {
    this.timeout(180_000);
    const requests = requestsFor({ method: "GET", path: pathsOf("/api/stats"), body: rareBody, authorization: anonymousAuthorization });
    await fuzz("GET /api/stats", requests, { neverAccepted: false }, [200, NO_ROUTE, 405]);
  });

  it("POST /api/login", async function () {
    this.timeout(180_000);
    const check = compile(loginBody);
    const template = fc.record(
      {
        email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 300 }), fc.constant(stack.demo.operator.email)),
        password: fc.oneof(fc.string({ maxLength: 300 }), fc.constant(stack.demo.operator.password)),
      },
      { requiredKeys: [] },
    );
    // Schema-valid logins count as failures against this client address and would slow other tests down: none here.
    const requests = requestsFor({
      method: "POST",
      path: pathsOf("/api/login"),
      body: optionalBody(bodiesAround(template, ["email", "password"], [])),
      authorization: anonymousAuthorization,
    }).filter((request) => !passes(check, request.body));
    await fuzz("POST /api/login", requests, { neverAccepted: true }, [405, 413, 415, 422]);

    // A few well-formed wrong logins reach the throttle and the password check.
    for (const email of ["fuzz-1@fuzz.invalid", "FUZZ-2@fuzz.invalid", `fuzz-3@${"x".repeat(60)}.invalid`]) {
      const request: FuzzRequest = { method: "POST", path: "/api/login", headers: { "Content-Type": "application/json" }, body: Buffer.from(JSON.stringify({ email, password: "not-the-password" })), chunked: false };
      const answer = await send(base, agent, request);
      expect(problemWith(request, answer, { neverAccepted: true }), describeRequest(request)).to.equal(undefined);
      expect((answer as Answer).status).to.equal(401);
    }
    // A NUL or a lone surrogate anywhere in a body is refused by the body parser before any endpoint sees it.
    const unstorable: FuzzRequest = { method: "POST", path: "/api/login", headers: { "Content-Type": "application/json" }, body: Buffer.from(JSON.stringify({ email: "fuzz-4@fuzz.invalid", password: "\u0000\ud800" })), chunked: false };
    expect(((await send(base, agent, unstorable)) as Answer).status).to.equal(422);
  });

  describe("factory writes", () => {
    const uidish = () => fc.oneof(anyCase(seededUids()), unknownUid, nearMissUid, fc.string({ maxLength: 50 }), hostileText);
    const hexTag = fc.oneof(fc.stringMatching(/^[0-9A-Fa-f]{8}$/), fc.stringMatching(/^[0-9A-Fa-f]{14}$/), fc.stringMatching(/^[0-9A-Fa-f]{20}$/));
    const safeText = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9 .,-]{${min},${max}}$`));
    const details = fc.dictionary(fc.string({ maxLength: 50 }), fc.oneof(hostileText, fc.double(), fc.boolean(), fc.jsonValue({ maxDepth: 2 })), { maxKeys: 25 });
    const validDetails = fc.dictionary(safeText(1, 40), fc.oneof(safeText(0, 100), fc.integer(), fc.boolean()), { maxKeys: 5 });

    type WriteEndpoint = {
      label: string;
      path: (factoryPath: fc.Arbitrary<string>) => fc.Arbitrary<string>;
      template: () => fc.Arbitrary<Record<string, unknown>>;
      valid: () => fc.Arbitrary<Record<string, unknown>>;
      schema: JsonSchema;
      fields: string[];
      arrayFields: string[];
      /** Schema-valid bodies the operator's token could act on, which the guard below keeps out. */
      guarded: boolean;
      /** Requests that reach the database with text it cannot store, and so must be refused by validation. */
      unstorable?: () => fc.Arbitrary<FuzzRequest>;
      statusesWithToken: number[];
    };

    const onFactory = (action: string) => (id: fc.Arbitrary<string>) => fc.oneof({ weight: 6, arbitrary: id.map((s) => `/api/factories/${s}/${action}`) }, { weight: 1, arbitrary: pathsAround("/api/factories/", `/${action}`) });

    /** A well-formed POST that passes every check before validation; validation must refuse it with 422. */
    const refusedPost = (path: string, token: string, body: unknown): FuzzRequest => ({
      method: "POST",
      path,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: Buffer.from(JSON.stringify(body), "utf8"),
      chunked: false,
      expected: 422,
    });

    const endpoints: WriteEndpoint[] = [
      {
        label: "POST /api/factories",
        path: () => pathsOf("/api/factories"),
        template: () =>
          fc.record(
            {
              factory_id: fc.oneof(fc.integer(), fc.constantFrom(...stack.demo.factory_ids), fc.double()),
              name: fc.oneof(fc.string({ maxLength: 130 }), hostileText),
              city: fc.oneof(fc.string({ maxLength: 90 }), hostileText),
              country: fc.oneof(fc.stringMatching(/^[A-Z]{2}$/), fc.string({ maxLength: 3 })),
              certifications: fc.oneof(fc.subarray([...CERTIFICATION_CODES, "bogus", "gots"]), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 9 })),
              product_types: fc.array(fc.string({ maxLength: 35 }), { maxLength: 22 }),
              capacity_units_per_month: fc.oneof(fc.integer(), fc.double()),
              min_order_units: fc.integer(),
              lead_time_days: fc.integer({ min: -1, max: 400 }),
              description: fc.oneof(fc.string({ maxLength: 510 }), hostileText),
              verified: fc.oneof(fc.boolean(), fc.constantFrom("true", 1, null)),
            },
            { requiredKeys: [] },
          ),
        // Registering needs an admin: with the operator's token every one of these is a 403.
        valid: () =>
          fc.record({
            factory_id: fc.oneof(fc.constantFrom(...stack.demo.factory_ids), fc.integer({ min: 1, max: 999_999_999 })),
            name: safeText(1, 120),
            city: safeText(1, 80),
            country: fc.stringMatching(/^[A-Z]{2}$/),
            certifications: fc.subarray([...CERTIFICATION_CODES]),
            capacity_units_per_month: fc.integer({ min: 1, max: 100_000_000 }),
            min_order_units: fc.integer({ min: 1, max: 10_000_000 }),
            lead_time_days: fc.integer({ min: 1, max: 365 }),
          }),
        schema: registerFactoryBody,
        fields: ["factory_id", "name", "city", "country", "certifications", "product_types", "capacity_units_per_month", "min_order_units", "lead_time_days", "description", "verified"],
        arrayFields: ["certifications", "product_types"],
        guarded: false,
        // An admin registering an unregistered id with a NUL in its text: the insert precedes the chain, so this
        // can only ever fail, with 422 from validation or (a defect) 500 from Postgres.
        unstorable: () =>
          fc
            .record({
              factory_id: fc.integer({ min: 900_000_000, max: 999_999_999 }),
              name: unstorableText,
              city: fc.oneof(safeText(1, 80), unstorableText),
              description: fc.oneof(safeText(0, 100), unstorableText),
            })
            .map(({ factory_id, name, city, description }) =>
              withNul(refusedPost("/api/factories", adminToken, { factory_id, name, city, country: "BD", capacity_units_per_month: 1000, min_order_units: 10, lead_time_days: 30, description })),
            ),
        statusesWithToken: [403, 405, 413, 415, 422],
      },
      {
        label: "POST /api/factories/:id/passports",
        path: onFactory("passports"),
        template: () => fc.record({ uid: uidish() }, { requiredKeys: [] }),
        valid: () => fc.record({ uid: unknownUid }),
        schema: mintBody,
        fields: ["uid"],
        arrayFields: [],
        guarded: true,
        statusesWithToken: [403, 404, 405, 413, 415, 422],
      },
      {
        label: "POST /api/factories/:id/tags",
        path: onFactory("tags"),
        template: () => fc.record({ uid: uidish(), tag_uid: fc.oneof(hexTag, fc.string({ maxLength: 30 }), fc.stringMatching(/^[0-9A-Fa-f]{1,24}$/)) }, { requiredKeys: [] }),
        valid: () => fc.record({ uid: unknownUid, tag_uid: hexTag }),
        schema: assignTagBody,
        fields: ["uid", "tag_uid"],
        arrayFields: [],
        guarded: true,
        statusesWithToken: [403, 404, 405, 413, 415, 422],
      },
      {
        label: "POST /api/factories/:id/events",
        path: onFactory("events"),
        template: () => fc.record({ uid: uidish(), stage: fc.oneof(fc.integer({ min: -5, max: 20 }), fc.double()), details: fc.oneof(details, fc.jsonValue({ maxDepth: 3 })) }, { requiredKeys: [] }),
        valid: () => fc.record({ uid: unknownUid, stage: fc.integer({ min: 1, max: 12 }), details: validDetails }, { requiredKeys: ["uid", "stage"] }),
        schema: supplyChainEventBody,
        fields: ["uid", "stage", "details"],
        arrayFields: [],
        guarded: true,
        // The operator's own minted product with text in `details` that jsonb refuses: past every check but validation.
        unstorable: () =>
          fc
            .tuple(fc.integer({ min: 1, max: 12 }), unstorableText, fc.boolean(), validDetails, anyCase([ownMintedUid]))
            .map(([stage, bad, inKey, others, uid]) =>
              withNul(refusedPost(`/api/factories/${operator.factoryId}/events`, operator.token, { uid, stage, details: { ...others, ...(inKey ? { [bad]: "x" } : { note: bad }) } })),
            ),
        statusesWithToken: [403, 404, 405, 413, 415, 422],
      },
    ];

    for (const endpoint of endpoints) {
      it(`${endpoint.label} without a valid token`, async function () {
        this.timeout(180_000);
        const factoryId = fc.oneof(fc.constant(String(operator.factoryId)), fc.integer({ min: 1, max: 999_999_999 }).map(String), hostileSegment);
        const requests = requestsFor({
          method: "POST",
          path: endpoint.path(factoryId),
          body: optionalBody(bodiesAround(endpoint.template(), endpoint.fields, endpoint.arrayFields, endpoint.valid())),
          authorization: anonymousAuthorization,
        });
        // 422 comes from a malformed path (checked before the token); the body is read only after authentication.
        const expected = endpoint.label.includes(":id") ? [401, 405, 422] : [401, 405];
        const tally = await fuzz(`${endpoint.label}, no valid token`, requests, { neverAccepted: true }, expected);
        const bodyProblems = [...tally.statuses.keys()].filter((status) => status === "413" || status === "415");
        expect(bodyProblems, "a body problem answered before authentication").to.deep.equal([]);
      });

      it(`${endpoint.label} with a valid operator token`, async function () {
        this.timeout(180_000);
        const check = compile(endpoint.schema);
        const factoryId = fc.oneof(
          { weight: 6, arbitrary: fc.constant(String(operator.factoryId)) },
          { weight: 2, arbitrary: fc.integer({ min: 1, max: 999_999_999 }).map(String) },
          { weight: 2, arbitrary: hostileSegment },
        );
        let requests = requestsFor({
          method: "POST",
          path: endpoint.path(factoryId),
          body: optionalBody(bodiesAround(endpoint.template(), endpoint.fields, endpoint.arrayFields, endpoint.valid())),
          authorization: operatorAuthorization(operator.token),
        });
        // Nothing may be minted, tagged or recorded: a schema-valid body must name an unknown UID.
        if (endpoint.guarded) requests = requests.filter((request) => !passes(check, request.body) || namesUnknownUid(request.body));
        if (endpoint.unstorable) requests = fc.oneof({ weight: 19, arbitrary: requests }, { weight: 1, arbitrary: endpoint.unstorable() });
        await fuzz(`${endpoint.label}, valid token`, requests, { neverAccepted: true }, endpoint.statusesWithToken);
      });
    }
  });

  // Mocha runs a suite's own tests before its child suites: this one is a suite so that it runs last.
  describe("afterwards", () => {
    it("leaves no trace: no transaction sent, no row written, Object.prototype untouched", async () => {
      const now = await traces();
      expect(now.nonce, "transactions sent by the shared wallet").to.equal(baseline.nonce);
      expect(now.rows).to.deep.equal(baseline.rows);
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, "fuzzPolluted")).to.equal(false);
      expect(({} as Record<string, unknown>).fuzzPolluted).to.equal(undefined);
    });
  });
});
