// The webhook sender on its own, against a real HTTP server on 127.0.0.1: what it does with pooled sockets that the
// receiver closes under it.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { expect } from "chai";
import { WebhookSender } from "../../api/src/webhooks/sender";

type Behaviour = (requestOnSocket: number) => "answer" | "drop";

/** Answers 200 with keep-alive, or drops the connection without a word, as `behaviour` says for each request. */
class Receiver {
  behaviour: Behaviour = () => "answer";
  connections = 0;
  requests = 0;
  private readonly perSocket = new WeakMap<Socket, number>();
  private readonly server = http.createServer((req, res) => {
    const n = (this.perSocket.get(req.socket) ?? 0) + 1;
    this.perSocket.set(req.socket, n);
    this.requests += 1;
    req.resume();
    req.on("end", () => {
      if (this.behaviour(n) === "drop") req.socket.destroy();
      else res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });

  async start(): Promise<this> {
    this.server.keepAliveTimeout = 60_000;
    this.server.on("connection", () => (this.connections += 1));
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe("webhook sender", () => {
  let receiver: Receiver;
  let sender: WebhookSender;

  beforeEach(async () => {
    receiver = await new Receiver().start();
    sender = new WebhookSender({ policy: { httpsOnly: false, allowLoopback: true }, timeoutMs: 10_000 });
  });
  afterEach(async () => {
    sender.close();
    await receiver.stop();
  });

  const post = () => sender.post(receiver.url, '{"event":"cert.issued"}', { "webhook-id": "msg_1" });

  it("reuses a kept-alive connection for the next delivery to the same address", async () => {
    expect(await post()).to.deep.equal({ kind: "delivered", status: 200 });
    expect(await post()).to.deep.equal({ kind: "delivered", status: 200 });
    expect(receiver).to.include({ connections: 1, requests: 2 });
  });

  it("sends again on a fresh connection when the receiver closed the pooled one as it was reused", async () => {
    expect(await post()).to.deep.equal({ kind: "delivered", status: 200 });
    // The second request on that connection finds it closed, as when a receiver's keep-alive time-out strikes.
    receiver.behaviour = (n) => (n === 2 ? "drop" : "answer");
    expect(await post()).to.deep.equal({ kind: "delivered", status: 200 });
    expect(receiver).to.include({ connections: 2, requests: 3 });
  });

  it("sends the second try outside the pool, whose other idle connections may be closed too", async () => {
    // Two deliveries at once leave two kept-alive connections in the pool.
    expect(await Promise.all([post(), post()])).to.deep.equal([{ kind: "delivered", status: 200 }, { kind: "delivered", status: 200 }]);
    expect(receiver.connections).to.equal(2);
    // The receiver restarts, say: every pooled connection is dead.
    receiver.behaviour = (n) => (n === 2 ? "drop" : "answer");
    expect(await post()).to.deep.equal({ kind: "delivered", status: 200 });
    expect(receiver).to.include({ connections: 3, requests: 4 });
  });

  it("reports a connection dropped on its first request as a failed attempt, without sending twice", async () => {
    receiver.behaviour = () => "drop";
    const outcome = await post();
    expect(outcome).to.include({ kind: "failed", status: null });
    expect((outcome as { error: string }).error).to.match(/ECONNRESET|socket hang up/);
    expect(receiver).to.include({ connections: 1, requests: 1 });
  });

  it("sends at most twice when a fresh connection is dropped too", async () => {
    expect(await post()).to.deep.equal({ kind: "delivered", status: 200 });
    receiver.behaviour = (n) => (n === 1 && receiver.requests > 1 ? "drop" : n === 2 ? "drop" : "answer");
    const outcome = await post();
    expect(outcome).to.include({ kind: "failed", status: null });
    expect(receiver).to.include({ connections: 2, requests: 3 });
  });
});
