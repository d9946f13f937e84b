// The API skeleton against a real Postgres: request ids, the error envelope, health, readiness and OpenAPI.
import { expect } from "chai";
import { json } from "../support/http";
import { ConfigError, loadConfig } from "../../api/src/config";
import { freePort } from "../../scripts/lib/processes";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { createTestDatabase } from "../support/hooks";

describe("API skeleton", () => {
  let api: InProcessApi;

  before(async () => {
    // Nothing listens on this port: the chain is down, so readiness must say so.
    const deadRpc = `http://127.0.0.1:${await freePort()}`;
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("skeleton"), RPC_URL: deadRpc });
  });
  after(() => api?.close());

  it("answers /healthz with a request id", async () => {
    const res = await fetch(`${api.url}/healthz`);
    expect(res.status).to.equal(200);
    expect(await json(res)).to.deep.equal({ status: "ok" });
    expect(res.headers.get("x-request-id")).to.match(/^[0-9a-f-]{36}$/);
  });

  it("echoes a sane caller request id and replaces an unsafe one", async () => {
    const kept = await fetch(`${api.url}/healthz`, { headers: { "X-Request-Id": "trace-12345678" } });
    expect(kept.headers.get("x-request-id")).to.equal("trace-12345678");
    const replaced = await fetch(`${api.url}/healthz`, { headers: { "X-Request-Id": "bad id\u00e9" } });
    expect(replaced.headers.get("x-request-id")).to.not.equal("bad id\u00e9");
  });

  it("renders unknown routes as 404 NOT_FOUND in the error envelope", async () => {
    const res = await fetch(`${api.url}/no/such/route`);
    expect(res.status).to.equal(404);
    const body = await json(res);
    expect(body).to.deep.include({ success: false });
    expect(body.error.code).to.equal("NOT_FOUND");
    expect(body.error.request_id).to.equal(res.headers.get("x-request-id"));
  });

  it("renders a wrong method as 405 in the envelope", async () => {
    const res = await fetch(`${api.url}/healthz`, { method: "DELETE" });
    expect(res.status).to.equal(405);
    expect((await json(res)).error.code).to.equal("METHOD_NOT_ALLOWED");
  });

  it("reports 503 from /readyz with what is missing when the chain is down", async () => {
    const res = await fetch(`${api.url}/readyz`);
    expect(res.status).to.equal(503);
    const body = await json(res);
    expect(body.status).to.equal("not_ready");
    expect(body.checks.database.ok).to.equal(true);
    expect(body.checks.chain.ok).to.equal(false);
    expect(body.checks.indexer.ok).to.equal(false);
    expect(body.checks.indexer.detail).to.be.a("string");
  });

  it("serves an OpenAPI 3.1 document listing its routes", async () => {
    const res = await fetch(`${api.url}/api/openapi.json`);
    expect(res.status).to.equal(200);
    const doc = await json(res);
    expect(doc.openapi).to.equal("3.1.0");
    expect(doc.paths).to.include.keys(["/healthz", "/readyz", "/api/openapi.json"]);
    expect(doc.paths["/readyz"].get.responses).to.have.keys(["200", "503"]);
  });
});

describe("configuration", () => {
  it("lists every bad key at once", () => {
    try {
      loadConfig({ SERVICE_MODE: "production", PORT: "abc", CHAIN_ID: "137", LOG_LEVEL: "loud" });
      expect.fail("loadConfig accepted a broken production environment");
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join("\n");
      for (const key of ["PORT", "DATABASE_URL", "RPC_URL", "SIGNER_PRIVATE_KEY", "PUBLIC_BASE_URL", "LOG_LEVEL"]) {
        expect(problems).to.include(key);
      }
    }
  });

  it("needs nothing in local mode and freezes the result", () => {
    const config = loadConfig({});
    expect(config.mode).to.equal("local");
    expect(config.chainId).to.equal(31337);
    expect(Object.isFrozen(config)).to.equal(true);
  });

  it("refuses Hardhat's public key outside the local chain", () => {
    expect(() =>
      loadConfig({
        SERVICE_MODE: "production",
        CHAIN_ID: "137",
        SIGNER_PRIVATE_KEY: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
        DATABASE_URL: "postgres://u:p@db/x",
        RPC_URL: "https://rpc.example",
        PUBLIC_BASE_URL: "https://dpp.example",
      }),
    ).to.throw(ConfigError, /Hardhat's public test key/);
  });
});

describe("the client address behind reverse proxies", () => {
  it("ignores X-Forwarded-For without trusted proxies, and takes the entry our own proxy wrote with them", async () => {
    const databaseUrl = await createTestDatabase("client_address");
    const deadRpc = `http://127.0.0.1:${await freePort()}`;
    const direct = await startInProcessApi({ DATABASE_URL: databaseUrl, RPC_URL: deadRpc });
    const proxied = await startInProcessApi({ DATABASE_URL: databaseUrl, RPC_URL: deadRpc, TRUSTED_PROXY_HOPS: "1" });
    try {
      // A failed login is throttled per client address: the key it counts under shows which address the API saw.
      const failLogin = (api: InProcessApi, forwardedFor: string) =>
        fetch(`${api.url}/api/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": forwardedFor },
          body: JSON.stringify({ email: "nobody@example.com", password: "not-the-password" }),
        });
      expect((await failLogin(direct, "198.51.100.1")).status).to.equal(401);
      // The client wrote the first entry, the proxy appended the address it saw.
      expect((await failLogin(proxied, "198.51.100.1, 203.0.113.9")).status).to.equal(401);
      const keys = (await direct.db("app.auth_failures").pluck("key")) as string[];
      expect(keys.filter((key) => key.startsWith("login:ip:")).sort()).to.deep.equal(["login:ip:127.0.0.1", "login:ip:203.0.113.9"]);
    } finally {
      await direct.close();
      await proxied.close();
    }
  });
});
