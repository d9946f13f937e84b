// GS1's resolver test suite served offline on 127.0.0.1: its page, its scripts (test/vendor/gs1-resolver-testsuite),
// the schemas and link-type list it fetches (local copies), and the HTTP helper it calls for requests a page cannot
// make (GS1 runs a PHP script, tester.php; re-implemented here: same commands, same answers).
import { readFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const VENDOR = path.join(__dirname, "..", "vendor");
const SUITE_DIR = path.join(VENDOR, "gs1-resolver-testsuite");

/** The suite's hard-coded addresses, and the local file each is pointed at when the suite is served. */
const SUITE_URLS: Array<[string, string]> = [
  ["'https://philarcher.org/gs1/tester.php'", "/tester.php"],
  ["'https://ref.gs1.org/standards/resolver/description-file-schema'", "/description-file-schema.json"],
  ["'https://gs1.github.io/linkset/gs1-linkset-schema.json'", "/gs1-linkset-schema.json"],
  ["'https://ref.gs1.org/voc/data/linktypes'", "/linktypes.json"],
];

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GS1 resolver test suite</title></head>
<body><img id="rotatingcircle" alt=""><div id="gs1ResolverTests"></div>
<script src="/ajv7.js"></script><script src="/GS1DigitalLinkToolkit.js"></script><script src="/GS1DigitalLinkResolverTestSuite.js"></script>
</body></html>`;

export type SuiteServer = { url: string; close: () => Promise<void> };

/**
 * Serves the suite for a resolver at `resolverOrigin` (http://127.0.0.1:port). The helper reaches only that origin;
 * the suite asks it for `https://` there (GS1's helper refuses anything else), which is answered over http because
 * the local stack has no TLS.
 */
export async function startSuiteServer(resolverOrigin: string): Promise<SuiteServer> {
  const files = await suiteFiles();
  let origin = "";
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/tester.php") {
      void tester(url.search.slice(1), resolverOrigin).then((answer) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify(answer));
      });
      return;
    }
    const file = url.pathname === "/" ? { type: "text/html; charset=utf-8", body: PAGE } : files.get(url.pathname);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const body = url.pathname === "/GS1DigitalLinkResolverTestSuite.js" ? pointedAtLocalCopies(file.body, origin) : file.body;
    res.writeHead(200, { "Content-Type": file.type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function suiteFiles(): Promise<Map<string, { type: string; body: string }>> {
  const js = "text/javascript; charset=utf-8";
  const json = "application/json";
  const read = (file: string) => readFileSync(path.join(VENDOR, file), "utf8");
  return new Map([
    ["/GS1DigitalLinkResolverTestSuite.js", { type: js, body: read("gs1-resolver-testsuite/GS1DigitalLinkResolverTestSuite.js") }],
    ["/GS1DigitalLinkToolkit.js", { type: js, body: read("gs1-resolver-testsuite/GS1DigitalLinkToolkit.js") }],
    ["/ajv7.js", { type: js, body: await ajvBundle() }],
    ["/gs1-linkset-schema.json", { type: json, body: read("gs1-linkset/gs1-linkset-schema.json") }],
    ["/description-file-schema.json", { type: json, body: read("gs1-resolver-description-file-schema/description-file-schema.json") }],
    ["/linktypes.json", { type: json, body: read("gs1-webvoc/linktypes.json") }],
  ]);
}

/** The suite with its GS1 addresses replaced by this server's; throws when one is gone (a new suite version). */
function pointedAtLocalCopies(source: string, origin: string): string {
  let out = source;
  for (const [remote, local] of SUITE_URLS) {
    if (!out.includes(remote)) throw new Error(`${SUITE_DIR}: the suite no longer fetches ${remote}`);
    out = out.split(remote).join(`'${origin}${local}'`);
  }
  return out;
}

/**
 * Ajv (draft-07) for the page as `window.ajv7`, which is what GS1's page loads from a CDN: bundled from our own ajv
 * with esbuild (tsx's, so nothing new is installed).
 */
async function ajvBundle(): Promise<string> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    stdin: { contents: 'import Ajv from "ajv"; window.ajv7 = Ajv;', resolveDir: process.cwd(), loader: "js" },
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

type Fetched = { status: number; statusMessage: string; httpVersion: string; headers: Record<string, string>; body: string };

/** tester.php: one of its five commands, answered with the same JSON object. */
async function tester(queryString: string, resolverOrigin: string): Promise<Record<string, unknown>> {
  // PHP's parse_str(urldecode($query)): the query is decoded twice, so `&` inside an encoded testVal splits it too.
  const params = new URLSearchParams(safeDecode(queryString.replace(/\+/g, " ")));
  const test = params.get("test") ?? "";
  const testVal = params.get("testVal") ?? "";
  const target = localTarget(testVal, resolverOrigin);
  if (!target) return { error: "Invalid test command" };
  try {
    if (test === "getHTTPversion") {
      const res = await send("HEAD", target, {});
      return { test, testVal, result: `HTTP/${res.httpVersion}` };
    }
    if (test === "getAllHeaders" || test === "getLinksetHeaders") {
      const headers: Record<string, string> = { Origin: "https://ref.gs1.org/test-suites/resolver/" };
      const mediaType = test === "getLinksetHeaders" ? "application/linkset+json" : params.get("mediaType");
      const lang = params.get("lang");
      if (mediaType) headers.Accept = mediaType;
      if (lang) headers["Accept-Language"] = lang;
      return { test, testVal, result: headerResult(target, await send("GET", target, headers)) };
    }
    if (test === "getCorsHeaders") {
      const res = await send("OPTIONS", target, { Origin: "https://ref.gs1.org/test-suites/resolver/", "Access-Control-Request-Method": "GET,HEAD,OPTIONS" });
      return { test, testVal, result: headerResult(target, res) };
    }
    if (test === "getLinkset") {
      const res = await send("GET", target, { Origin: "https://ref.gs1.org/test-suites/resolver/", Accept: "application/linkset+json" });
      const result = { uri: target, httpCode: res.status, httpMsg: res.statusMessage, headers: res.headers, responseBody: encodeURIComponent(res.body) };
      return { test, testVal, result: JSON.stringify(result) };
    }
    return { error: "Invalid test command" };
  } catch (error) {
    return { test, testVal, result: { error: (error as Error).message } };
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The resolver URL a testVal names, over http; undefined for anything not on the resolver under test. */
function localTarget(testVal: string, resolverOrigin: string): string | undefined {
  const host = new URL(resolverOrigin).host;
  for (const scheme of ["https://", "http://"]) {
    if (testVal.startsWith(`${scheme}${host}`)) return `http://${testVal.slice(scheme.length)}`;
  }
  return undefined;
}

/** What tester.php returns for a request's headers: code, message, and each response header as sent (the last of a repeated one). */
function headerResult(uri: string, res: Fetched): Record<string, unknown> {
  return { uri, httpCode: res.status, httpMsg: res.statusMessage, ...res.headers };
}

/** One request, redirects not followed, headers kept with the case the server sent them in. */
function send(method: string, target: string, headers: Record<string, string>): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(target, { method, headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? "",
          httpVersion: res.httpVersion,
          headers: rawHeaders(res.rawHeaders),
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("timeout", () => req.destroy(new Error(`timed out: ${method} ${target}`)));
    req.on("error", reject);
    req.end();
  });
}

function rawHeaders(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) out[raw[i]!] = raw[i + 1]!;
  return out;
}
