// How the service connects to Postgres: DATABASE_URL's TLS parameters checked and put in the form node-postgres reads,
// the pool's size and the server-side time-outs. config.ts calls this once; db/knex.ts builds the pool from it.
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";

/** libpq's sslmode values that never fall back to clear text ("prefer" and "allow" may, silently). */
export const SSL_MODES = ["disable", "require", "verify-ca", "verify-full"] as const;
export type SslMode = (typeof SSL_MODES)[number];

export type DatabaseSettings = Readonly<{
  /** DATABASE_URL as node-postgres must read it: libpq semantics asked for (`uselibpqcompat=true`) whenever TLS is. */
  url: string;
  /** undefined: the URL asks for no TLS (the driver's default, clear text). */
  sslMode: SslMode | undefined;
  /** The CA certificate file (`sslrootcert`) the server's certificate must chain to; undefined: the system's CAs. */
  caFile: string | undefined;
  poolMin: number;
  poolMax: number;
  /** Postgres cancels a statement running longer (error 57014); 0 is no limit. */
  statementTimeoutMs: number;
  /** Postgres ends a session left idle inside a transaction this long, releasing its locks; 0 is no limit. */
  idleInTransactionTimeoutMs: number;
}>;

type Numbers = Pick<DatabaseSettings, "poolMin" | "poolMax" | "statementTimeoutMs" | "idleInTransactionTimeoutMs">;

/**
 * DATABASE_URL takes libpq's parameters, so the same URL serves the API, the dispatcher and the indexer (Ponder uses
 * node-postgres too): `sslmode` (disable | require | verify-ca | verify-full), `sslrootcert` (a CA file; alone it means
 * verify-full) and `sslcert` + `sslkey` (a client certificate). node-postgres reads require and verify-ca as
 * verify-full unless the URL says `uselibpqcompat=true`; that is added here, so they mean what libpq's manual says.
 * Each problem is pushed onto `problems` (config.ts lists them all at once).
 */
export function databaseSettings(value: string, numbers: Numbers, problems: string[]): DatabaseSettings {
  if (numbers.poolMin > numbers.poolMax) {
    problems.push(`DATABASE_POOL_MIN must not exceed DATABASE_POOL_MAX (${numbers.poolMin} > ${numbers.poolMax})`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    if (value) problems.push("DATABASE_URL is not a valid URL");
    return Object.freeze({ url: value, sslMode: undefined, caFile: undefined, ...numbers });
  }
  const param = (name: string) => url.searchParams.get(name) ?? undefined;
  if (url.searchParams.has("ssl")) {
    problems.push("DATABASE_URL: use sslmode=require|verify-ca|verify-full (and sslrootcert=<CA file>) instead of ssl=");
  }
  const givenMode = param("sslmode");
  const caFile = param("sslrootcert");
  let sslMode: SslMode | undefined;
  if (givenMode === undefined) {
    sslMode = caFile === undefined ? undefined : "verify-full";
  } else if (isSslMode(givenMode)) {
    sslMode = givenMode;
  } else {
    problems.push(`DATABASE_URL sslmode must be one of ${SSL_MODES.join(", ")} (got "${givenMode}"; prefer and allow may fall back to clear text)`);
  }
  // node-postgres 8.16 checks a certificate against "localhost" when the URL names the server by address (its issue
  // 2263): a certificate for any host the CA signed would pass.
  if (sslMode === "verify-full" && isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0) {
    problems.push("DATABASE_URL sslmode=verify-full needs the server's host name as on its certificate, not an IP address (or use verify-ca)");
  }
  if (sslMode === "verify-ca" && caFile === undefined) {
    problems.push("DATABASE_URL sslmode=verify-ca needs sslrootcert=<CA file>: with the system's CAs it would accept any server they certify");
  }
  // node-postgres reads every file the URL names when it connects, under sslmode=disable too.
  const readable = (name: string, file: string | undefined, pem: RegExp, what: string) => {
    if (file === undefined) return;
    const problem = unreadablePem(file, pem, what);
    if (problem) problems.push(`DATABASE_URL ${name}: ${problem}`);
  };
  readable("sslrootcert", caFile, /-----BEGIN CERTIFICATE-----/, "a PEM certificate");
  readable("sslcert", param("sslcert"), /-----BEGIN CERTIFICATE-----/, "a PEM certificate");
  readable("sslkey", param("sslkey"), /-----BEGIN [A-Z ]*PRIVATE KEY-----/, "a PEM private key");
  if (url.searchParams.has("sslcert") !== url.searchParams.has("sslkey")) {
    problems.push("DATABASE_URL needs both sslcert and sslkey for a client certificate, or neither");
  }
  if (sslMode === undefined) return Object.freeze({ url: value, sslMode, caFile, ...numbers });
  url.searchParams.set("sslmode", sslMode);
  url.searchParams.set("uselibpqcompat", "true");
  return Object.freeze({ url: url.toString(), sslMode, caFile, ...numbers });
}

function isSslMode(value: string): value is SslMode {
  return (SSL_MODES as readonly string[]).includes(value);
}

/** Why `file` cannot serve as `what`, or undefined when it can. */
function unreadablePem(file: string, pem: RegExp, what: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path.resolve(file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? `${file} does not exist` : `${file} cannot be read (${code ?? String(error)})`;
  }
  return pem.test(text) ? undefined : `${file} is not ${what}`;
}
