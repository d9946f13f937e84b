// Postgres for production (issue 15, part 4): DATABASE_URL's sslmode and CA file checked at start-up, pool sizes and
// time-outs validated, a real TLS connection to a Postgres of the test's own (verify-full, verify-ca, a wrong CA), and a
// statement past DATABASE_STATEMENT_TIMEOUT_MS answered 503, not 500.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import Koa from "koa";
import { KeyCache } from "../../api/src/brands/key-cache";
import { ConfigError, loadConfig, type Config } from "../../api/src/config";
import { createDb, migrationPool } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { createLogger } from "../../api/src/logger";
import { errorHandler } from "../../api/src/middleware/error-handler";
import { requestId } from "../../api/src/middleware/request-id";
import { startEmbeddedPostgres, type EmbeddedDb } from "../../scripts/lib/postgres";
import { freePort, waitFor } from "../../scripts/lib/processes";

/** The problems loadConfig lists for `env` (local mode), or [] when it loads. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ SERVICE_MODE: "local", ...env });
    return [];
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
}

const openssl = (dir: string, ...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });

/** A CA (EC P-256, quick to make) and its file names in `dir`. */
function makeCa(dir: string, name: string): { cert: string; key: string } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", `/CN=${name}`,
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
  return { cert, key };
}

/** A server certificate signed by `ca` for the subject alternative name `san` (e.g. IP:127.0.0.1). */
function makeServerCert(dir: string, name: string, ca: { cert: string; key: string }, san: string): { cert: string; key: string } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  const csr = path.join(dir, `${name}.csr`);
  const ext = path.join(dir, `${name}.ext`);
  writeFileSync(ext, `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
  openssl(dir, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", csr, "-subj", `/CN=${name}`);
  openssl(dir, "x509", "-req", "-in", csr, "-CA", ca.cert, "-CAkey", ca.key, "-CAcreateserial", "-out", cert, "-days", "2", "-extfile", ext);
  return { cert, key };
}

/** Postgres reads its key only if nobody else can; as root it runs as the postgres account, which must own it. */
function handKeyToPostgres(key: string) {
  chmodSync(key, 0o600);
  if (process.getuid?.() !== 0) return;
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  chownSync(key, id("-u"), id("-g"));
}

describe("Postgres connection settings", () => {
  describe("DATABASE_URL's TLS parameters", () => {
    let dir: string;
    let ca: string;
    before(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), "db-config-"));
      ca = makeCa(dir, "config-ca").cert;
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const base = "postgres://u:p@db.internal:5432/registry";

    it("leaves a URL without TLS parameters as it is", () => {
      const config = loadConfig({ SERVICE_MODE: "local", DATABASE_URL: base });
      expect(config.database.sslMode).to.equal(undefined);
      expect(config.databaseUrl).to.equal(base);
    });

    it("takes each sslmode with libpq's meaning, for every pool and client of the process", () => {
      for (const mode of ["disable", "require", "verify-ca", "verify-full"]) {
        const config = loadConfig({ SERVICE_MODE: "local", DATABASE_URL: `${base}?sslmode=${mode}&sslrootcert=${encodeURIComponent(ca)}` });
        expect(config.database.sslMode, mode).to.equal(mode);
        const url = new URL(config.databaseUrl);
        expect(url.searchParams.get("sslmode"), mode).to.equal(mode);
        // node-postgres reads require and verify-ca as verify-full without it.
        expect(url.searchParams.get("uselibpqcompat"), mode).to.equal("true");
        expect(url.searchParams.get("sslrootcert"), mode).to.equal(ca);
        expect(config.database.caFile).to.equal(ca);
      }
      expect(loadConfig({ SERVICE_MODE: "local", DATABASE_URL: `${base}?sslmode=verify-full` }).database.caFile).to.equal(undefined);
    });

    it("reads a CA file without sslmode as verify-full", () => {
      const config = loadConfig({ SERVICE_MODE: "local", DATABASE_URL: `${base}?sslrootcert=${encodeURIComponent(ca)}` });
      expect(config.database.sslMode).to.equal("verify-full");
      expect(new URL(config.databaseUrl).searchParams.get("sslmode")).to.equal("verify-full");
    });

    it("names a missing or unreadable CA file at start-up, not at the first query", () => {
      const missing = path.join(dir, "nowhere", "ca.pem");
      expect(problemsOf({ DATABASE_URL: `${base}?sslmode=verify-full&sslrootcert=${missing}` })).to.deep.equal([
        `DATABASE_URL sslrootcert: ${missing} does not exist`,
      ]);
      // node-postgres reads the file even when TLS is off.
      expect(problemsOf({ DATABASE_URL: `${base}?sslmode=disable&sslrootcert=${missing}` })).to.deep.equal([`DATABASE_URL sslrootcert: ${missing} does not exist`]);
      const notPem = path.join(dir, "not-a-cert.pem");
      writeFileSync(notPem, "hello\n");
      expect(problemsOf({ DATABASE_URL: `${base}?sslmode=verify-ca&sslrootcert=${notPem}` })).to.deep.equal([
        `DATABASE_URL sslrootcert: ${notPem} is not a PEM certificate`,
      ]);
    });

    it("refuses modes that may fall back to clear text, verify-ca without a CA, and half a client certificate", () => {
      for (const mode of ["prefer", "allow", "no-verify", "VERIFY-FULL"]) {
        const problems = problemsOf({ DATABASE_URL: `${base}?sslmode=${mode}` });
        expect(problems, mode).to.have.length(1);
        expect(problems[0], mode).to.match(/^DATABASE_URL sslmode must be one of disable, require, verify-ca, verify-full/);
      }
      expect(problemsOf({ DATABASE_URL: `${base}?sslmode=verify-ca` })[0]).to.match(/verify-ca needs sslrootcert/);
      // node-postgres would check the certificate against "localhost" instead of the address.
      for (const host of ["10.0.0.7", "[fd00::7]"]) {
        expect(problemsOf({ DATABASE_URL: `postgres://u:p@${host}:5432/registry?sslmode=verify-full` }), host).to.deep.equal([
          "DATABASE_URL sslmode=verify-full needs the server's host name as on its certificate, not an IP address (or use verify-ca)",
        ]);
      }
      expect(problemsOf({ DATABASE_URL: `postgres://u:p@10.0.0.7:5432/registry?sslmode=verify-ca&sslrootcert=${encodeURIComponent(ca)}` })).to.deep.equal([]);
      expect(problemsOf({ DATABASE_URL: `${base}?ssl=true` })[0]).to.match(/instead of ssl=/);
      expect(problemsOf({ DATABASE_URL: `${base}?sslmode=require&sslcert=${encodeURIComponent(ca)}` })).to.deep.equal([
        "DATABASE_URL needs both sslcert and sslkey for a client certificate, or neither",
      ]);
    });
  });

  describe("pool sizes and time-outs", () => {
    it("has defaults for one process per core", () => {
      const { database } = loadConfig({ SERVICE_MODE: "local" });
      expect(database).to.include({ poolMin: 0, poolMax: 10, statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000 });
    });

    it("takes them from the environment", () => {
      const { database } = loadConfig({
        SERVICE_MODE: "local",
        DATABASE_POOL_MIN: "2",
        DATABASE_POOL_MAX: "25",
        DATABASE_STATEMENT_TIMEOUT_MS: "5000",
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: "0",
      });
      expect(database).to.include({ poolMin: 2, poolMax: 25, statementTimeoutMs: 5000, idleInTransactionTimeoutMs: 0 });
    });

    it("refuses numbers out of range, and every bad key is listed at once", () => {
      const problems = problemsOf({
        DATABASE_POOL_MAX: "0",
        DATABASE_STATEMENT_TIMEOUT_MS: "-1",
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: "ten",
      });
      expect(problems).to.deep.equal([
        'DATABASE_POOL_MAX must be an integer from 1 to 1000 (got "0")',
        'DATABASE_STATEMENT_TIMEOUT_MS must be an integer from 0 to 3600000 (got "-1")',
        'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS must be an integer from 0 to 3600000 (got "ten")',
      ]);
      expect(problemsOf({ DATABASE_POOL_MIN: "12", DATABASE_POOL_MAX: "8" })).to.deep.equal(["DATABASE_POOL_MIN must not exceed DATABASE_POOL_MAX (12 > 8)"]);
    });
  });

  describe("against a Postgres with TLS on", function () {
    this.timeout(120_000);
    let dir: string;
    let pg: EmbeddedDb;
    let ca: { cert: string; key: string };
    let wrongCa: { cert: string; key: string };
    let forLocalhost: { cert: string; key: string };
    let forName: { cert: string; key: string };

    /**
     * The configuration for this server's database, named as on its certificate (verify-full wants a name), with
     * `query` appended to its URL, and `env` besides.
     */
    const configFor = (query: string, env: Record<string, string> = {}): Config =>
      loadConfig({ SERVICE_MODE: "local", LOG_LEVEL: "silent", DATABASE_URL: `${pg.url("tls").replace("127.0.0.1", "localhost")}${query}`, ...env });

    /** Whether the session of a pool built from `config` is encrypted (pg_stat_ssl); rejects when it cannot connect. */
    async function sessionEncrypted(config: Config): Promise<boolean> {
      const db = createDb(config.database);
      try {
        const { rows } = await db.raw<{ rows: Array<{ ssl: boolean }> }>("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()");
        return rows[0]!.ssl;
      } finally {
        await db.destroy();
      }
    }

    /** Points the server at `certificate` and waits until new sessions use it. */
    async function serve(certificate: { cert: string; key: string }) {
      const db = createDb(pg.url("tls"));
      try {
        // ALTER SYSTEM takes no parameters: the paths go in as quoted literals.
        const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
        await db.raw(`ALTER SYSTEM SET ssl_cert_file = ${literal(certificate.cert)}`);
        await db.raw(`ALTER SYSTEM SET ssl_key_file = ${literal(certificate.key)}`);
        await db.raw("ALTER SYSTEM SET ssl = on");
        await db.raw("SELECT pg_reload_conf()");
      } finally {
        await db.destroy();
      }
      await waitFor(
        "Postgres to reload its TLS settings",
        async () => {
          const probe = createDb(pg.url("tls"));
          try {
            const { rows } = await probe.raw<{ rows: Array<{ ssl: string; file: string }> }>("SELECT current_setting('ssl') AS ssl, current_setting('ssl_cert_file') AS file");
            return rows[0]!.ssl === "on" && rows[0]!.file === certificate.cert ? true : undefined;
          } finally {
            await probe.destroy();
          }
        },
        10_000,
        50,
      );
    }

    before(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), "db-tls-"));
      // Postgres runs as another user when we are root: it must enter the directory and read the certificates.
      chmodSync(dir, 0o755);
      ca = makeCa(dir, "test-ca");
      wrongCa = makeCa(dir, "other-ca");
      forLocalhost = makeServerCert(dir, "server-localhost", ca, "DNS:localhost");
      forName = makeServerCert(dir, "server-name", ca, "DNS:db.internal");
      for (const file of [ca.cert, wrongCa.cert, forLocalhost.cert, forName.cert]) chmodSync(file, 0o644);
      handKeyToPostgres(forLocalhost.key);
      handKeyToPostgres(forName.key);
      pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: await freePort(), databases: ["tls"], persistent: false });
      await serve(forLocalhost);
    });

    after(async () => {
      await pg?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("connects encrypted with verify-full and the CA file", async () => {
      expect(await sessionEncrypted(configFor(`?sslmode=verify-full&sslrootcert=${ca.cert}`))).to.equal(true);
    });

    it("refuses a server whose certificate the CA file did not sign, saying why", async () => {
      let failure: unknown;
      await sessionEncrypted(configFor(`?sslmode=verify-full&sslrootcert=${wrongCa.cert}`)).catch((error: unknown) => (failure = error));
      expect(failure, "connected to a server the CA does not vouch for").to.be.instanceOf(Error);
      expect((failure as NodeJS.ErrnoException).code).to.be.oneOf(["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "SELF_SIGNED_CERT_IN_CHAIN"]);
      expect((failure as Error).message).to.match(/certificate/);
    });

    it("encrypts without verifying under require, and not at all under disable", async () => {
      expect(await sessionEncrypted(configFor("?sslmode=require"))).to.equal(true);
      expect(await sessionEncrypted(configFor("?sslmode=disable"))).to.equal(false);
      expect(await sessionEncrypted(configFor(""))).to.equal(false);
    });

    it("checks the host name under verify-full only; verify-ca checks the CA alone", async () => {
      await serve(forName);
      try {
        let failure: unknown;
        await sessionEncrypted(configFor(`?sslmode=verify-full&sslrootcert=${ca.cert}`)).catch((error: unknown) => (failure = error));
        expect((failure as NodeJS.ErrnoException | undefined)?.code).to.equal("ERR_TLS_CERT_ALTNAME_INVALID");
        expect(await sessionEncrypted(configFor(`?sslmode=verify-ca&sslrootcert=${ca.cert}`))).to.equal(true);
        let wrong: unknown;
        await sessionEncrypted(configFor(`?sslmode=verify-ca&sslrootcert=${wrongCa.cert}`)).catch((error: unknown) => (wrong = error));
        expect(wrong, "verify-ca accepted a certificate of another CA").to.be.instanceOf(Error);
      } finally {
        await serve(forLocalhost);
      }
    });

    it("gives the LISTEN connections (key cache, dispatcher) the same TLS settings as the pool", async () => {
      // Under require the server's certificate is not checked: node-postgres alone would check it and refuse this one.
      const config = configFor("?sslmode=require");
      const keyCache = new KeyCache(config.databaseUrl, createLogger("silent"));
      const db = createDb(config.database);
      try {
        await keyCache.start();
        const { rows } = await db.raw<{ rows: Array<{ ssl: boolean }> }>(
          "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'passport-registry-key-cache'",
        );
        expect(rows.map((row) => row.ssl)).to.deep.equal([true]);
      } finally {
        await keyCache.close();
        await db.destroy();
      }
    });

    it("cancels a statement past DATABASE_STATEMENT_TIMEOUT_MS, which a request sees as 503, not 500", async () => {
      const config = configFor(`?sslmode=verify-full&sslrootcert=${ca.cert}`, { DATABASE_STATEMENT_TIMEOUT_MS: "200" });
      const db = createDb(config.database);
      // The service's own error middleware in front of a handler whose query outlasts the time-out.
      const app = new Koa();
      app.use(requestId());
      app.use(errorHandler(createLogger("silent")));
      app.use(async (ctx) => {
        await db.raw("SELECT pg_sleep(2)");
        ctx.body = { slept: true };
      });
      const server = app.listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      try {
        let failure: unknown;
        await db.raw("SELECT pg_sleep(2)").catch((error: unknown) => (failure = error));
        expect((failure as { code?: string }).code).to.equal("57014");
        expect((failure as Error).message).to.match(/statement timeout/);
        // The pool survives: the next statement on it runs.
        expect((await db.raw<{ rows: unknown[] }>("SELECT 1")).rows).to.have.length(1);

        const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
        expect(res.status).to.equal(503);
        expect(res.headers.get("retry-after")).to.equal("5");
        const body = (await res.json()) as { error: { code: string; message: string } };
        expect(body.error.code).to.equal("SERVICE_UNAVAILABLE");
        expect(body.error.message).to.not.match(/pg_sleep|statement/);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        await db.destroy();
      }
    });

    it("runs migrations on connections without the statement time-out, over the same TLS", async () => {
      const config = configFor(`?sslmode=verify-full&sslrootcert=${ca.cert}`, { DATABASE_STATEMENT_TIMEOUT_MS: "200" });
      const db = createDb(config.database);
      const migrator = migrationPool(db);
      try {
        expect((await db.raw<{ rows: Array<{ statement_timeout: string }> }>("SHOW statement_timeout")).rows[0]!.statement_timeout).to.equal("200ms");
        expect((await migrator.raw<{ rows: Array<{ statement_timeout: string }> }>("SHOW statement_timeout")).rows[0]!.statement_timeout).to.equal("0");
        // A statement as long as an index build on a large table: cancelled on the pool, finished by the migrator.
        expect(await db.raw("SELECT pg_sleep(0.5)").then(() => "finished", (error: { code?: string }) => error.code)).to.equal("57014");
        expect((await migrator.raw<{ rows: unknown[] }>("SELECT pg_sleep(0.5)")).rows).to.have.length(1);
        expect((await migrator.raw<{ rows: Array<{ ssl: boolean }> }>("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")).rows[0]!.ssl).to.equal(true);
        // The wiring: migrateLatest with the time-out configured brings the schema up to date and leaves the pool as it was.
        await migrateLatest(db);
        expect((await db.raw<{ rows: unknown[] }>("SELECT 1 FROM app.chain_transactions LIMIT 1")).rows).to.have.length(0);
        expect((await db.raw<{ rows: Array<{ statement_timeout: string }> }>("SHOW statement_timeout")).rows[0]!.statement_timeout).to.equal("200ms");
      } finally {
        await migrator.destroy();
        await db.destroy();
      }
    });

    it("ends a session left idle in a transaction past DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS", async () => {
      const config = configFor("", { DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: "200" });
      const db = createDb(config.database);
      try {
        const trx = await db.transaction();
        await trx.raw("SELECT 1");
        await new Promise((resolve) => setTimeout(resolve, 600));
        let failure: unknown;
        await trx.raw("SELECT 1").catch((error: unknown) => (failure = error));
        expect(failure, "the idle transaction was left open").to.be.instanceOf(Error);
        await trx.rollback().catch(() => undefined);
      } finally {
        await db.destroy();
      }
    });
  });
});
