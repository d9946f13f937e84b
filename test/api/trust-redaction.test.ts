// No secrets in answers or logs (issue 9, finding 3): an RPC URL with a provider key in it, behind an RPC that
// answers 401 or 503, must not reach /readyz or a log line; the URL redaction those rely on.
import { buildAppDeps } from "../../api/src/assemble";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { expect } from "chai";
import { buildApp } from "../../api/src/app";
import { createChainAccess } from "../../api/src/chain/access";
import { createProvider } from "../../api/src/chain/provider";
import { loadConfig } from "../../api/src/config";
import { createDb, type Knex } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { createLogger } from "../../api/src/logger";
import { redactUrl, redactUrls } from "../../api/src/redact";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const PROVIDER_KEY = "0123456789abcdef0123456789abcdef";
const SECRETS = ["user", "pass", PROVIDER_KEY, "SECRET"];

describe("URL redaction", () => {
  it("keeps scheme, host, port and plain path words, and hides user info, query values and provider keys", () => {
    const cases: Array<[string, string]> = [
      [`http://user:pass@127.0.0.1:8545/v3/${PROVIDER_KEY}?apikey=SECRET`, "http://***@127.0.0.1:8545/v3/***?apikey=***"],
      ["https://mainnet.infura.io/v3/short", "https://mainnet.infura.io/v3/***"],
      ["https://eth-mainnet.g.alchemy.com/v2/AbCdEfGhIjKlMnOpQrStUvWxYz012345", "https://eth-mainnet.g.alchemy.com/v2/***"],
      [`https://rpc.ankr.com/eth/${"ab".repeat(32)}`, "https://rpc.ankr.com/eth/***"],
      ["https://name.quiknode.pro/4f2e1b9c8d7a/", "https://name.quiknode.pro/***/"],
      ["https://rpc.example/?key=a,b&token", "https://rpc.example/?key=***&token=***"],
      ["https://rpc.example/path#secret-fragment", "https://rpc.example/path#***"],
      ["postgres://postgres:hunter2@127.0.0.1:54329/passport_registry", "postgres://***@127.0.0.1:54329/passport_registry"],
      ["http://127.0.0.1:8545", "http://127.0.0.1:8545/"],
      ["http://[unparseable", "***"],
    ];
    for (const [raw, expected] of cases) expect(redactUrl(raw), raw).to.equal(expected);
  });

  it("finds URLs in free text, JSON and JSON-escaped text, and leaves text without URLs alone", () => {
    const url = `http://user:pass@127.0.0.1:1/v3/${PROVIDER_KEY}?apikey=SECRET`;
    const texts = [
      `server response 401 (info={ "requestUrl": "${url}" }, code=SERVER_ERROR)`,
      JSON.stringify({ msg: "failed", err: { message: `info={ "requestUrl": "${url}" }` } }),
      `connect ECONNREFUSED at ${url}\n    at Socket`,
    ];
    for (const text of texts) {
      const redacted = redactUrls(text);
      for (const secret of SECRETS) expect(redacted, text).to.not.include(secret);
      expect(redacted).to.include("127.0.0.1:1");
    }
    const plain = "no address here: user pass SECRET";
    expect(redactUrls(plain)).to.equal(plain);
  });
});

describe("an RPC that refuses us, with credentials in RPC_URL", () => {
  let rpc: http.Server;
  let rpcStatus = 401;
  let db: Knex;
  let api: http.Server;
  let apiUrl: string;
  let provider: ReturnType<typeof createProvider>;
  const logLines: string[] = [];
  let logger: ReturnType<typeof createLogger>;

  before(async () => {
    // A JSON-RPC endpoint on 127.0.0.1 that refuses every call with the status under test, as a provider does for a
    // bad key (401) or an outage (503), echoing nothing secret itself.
    rpc = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(rpcStatus, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "refused" } }));
      });
    });
    await new Promise<void>((resolve) => rpc.listen(0, "127.0.0.1", resolve));
    const rpcPort = (rpc.address() as AddressInfo).port;
    const config = loadConfig({
      SERVICE_MODE: "local",
      DATABASE_URL: await createTestDatabase("trust_redaction"),
      RPC_URL: `http://user:pass@127.0.0.1:${rpcPort}/v3/${PROVIDER_KEY}?apikey=SECRET`,
      LOG_LEVEL: "info",
    });
    db = createDb(config.databaseUrl, 4);
    await migrateLatest(db);
    provider = createProvider(config.rpcUrl, config.chainId);
    // The service's own logger, writing into memory: what an operator's log pipeline would receive.
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    logger = createLogger(config.logLevel, sink);
    const app = buildApp(buildAppDeps({ config, db, provider, chain: createChainAccess(config, provider, db, logger), logger }));
    api = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => api.once("listening", resolve));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  after(async () => {
    api?.closeAllConnections();
    await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
    provider?.destroy();
    await db?.destroy();
    await new Promise<void>((resolve) => (rpc ? rpc.close(() => resolve()) : resolve()));
  });

  for (const status of [401, 503]) {
    it(`keeps the credentials out of /readyz when the RPC answers ${status}`, async () => {
      rpcStatus = status;
      const res = await fetch(`${apiUrl}/readyz`);
      expect(res.status).to.equal(503);
      const text = await res.text();
      for (const secret of SECRETS) expect(text, `/readyz leaked "${secret}"`).to.not.include(secret);
      // Still useful to the operator: it says what the RPC answered.
      const body = JSON.parse(text) as { checks: { chain: { ok: boolean; detail: string } } };
      expect(body.checks.chain.ok).to.equal(false);
      expect(body.checks.chain.detail).to.include(String(status));
    });
  }

  it("keeps the credentials out of the log, whatever field of an error carries them", async () => {
    rpcStatus = 401;
    // A route whose RPC call fails is a 500, logged with the error (ethers puts the URL in message and info).
    const res = await fetch(`${apiUrl}/explorer/tx/0x${"ab".repeat(32)}`);
    expect(res.status).to.be.greaterThanOrEqual(500);
    expect(await res.text()).to.not.include(PROVIDER_KEY);
    // And an error logged directly, as the reconciler and the key cache do.
    const error = await provider.getBlockNumber().then(
      () => expect.fail("the RPC answered"),
      (caught: unknown) => caught,
    );
    expect(String((error as Error).message)).to.include(PROVIDER_KEY);
    logger.error({ err: error, rpc: (error as { info?: unknown }).info }, "rpc failed");
    await json(await fetch(`${apiUrl}/healthz`));

    const log = logLines.join("");
    expect(log).to.include("rpc failed");
    expect(log).to.include("127.0.0.1");
    for (const secret of [PROVIDER_KEY, "SECRET", "user:pass"]) expect(log, `the log leaked "${secret}"`).to.not.include(secret);
  });
});
