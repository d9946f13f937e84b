// Small HTTP helpers for tests.
import http from "node:http";

/** The parsed JSON body; tests read it freely and assert on what they read. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function json(res: Response): Promise<any> {
  return res.json();
}

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * GET with node:http: no redirect followed, the path and headers sent as given (fetch normalises the path and cannot
 * set Host).
 */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end();
  });
}
