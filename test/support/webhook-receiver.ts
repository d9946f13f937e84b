// A webhook receiver for tests: a real HTTP server on 127.0.0.1 that answers 200 and keeps every delivery (path,
// headers, raw body and parsed JSON) for the test to read and verify.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Delivery = { path: string; headers: Record<string, string>; body: string; payload: Record<string, unknown> };

export type WebhookReceiver = { url: string; received: Delivery[]; close: () => Promise<void> };

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ path: req.url ?? "", headers: req.headers as Record<string, string>, body, payload: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
