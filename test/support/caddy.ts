// Debian's caddy and pebble (a real ACME test CA) as children of a test, each on free ports of 127.0.0.1 with its files
// in a temporary directory, stopped by PID; and an HTTPS GET that trusts a given root and sends a given SNI. When a
// program is missing the test fails naming it (.ci/run installs both), never skips.
import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import https from "node:https";
import path from "node:path";
import type { TLSSocket } from "node:tls";
import forge from "node-forge";
import { portInUse, spawnLogged, waitFor, type Child } from "../../scripts/lib/processes";

/** Fails loudly when a program the test drives is not installed. */
export function requirePrograms(...programs: string[]): void {
  const missing = programs.filter((program) => {
    try {
      execFileSync("sh", ["-c", `command -v ${program}`], { stdio: "ignore" });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) throw new Error(`${missing.join(" and ")} missing: install Debian's ${missing.join(" ")} (apt-get install ${missing.join(" ")}; .ci/run does)`);
}

/** A self-signed certificate for 127.0.0.1 and localhost, for pebble's own HTTPS listener (Debian ships none). */
export function listenerCertificate(): { certPem: string; keyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  cert.serialNumber = "01";
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3_600_000);
  const name = [{ name: "commonName", value: "pebble test listener" }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: "basicConstraints", cA: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, keyCertSign: true },
    { name: "extKeyUsage", serverAuth: true },
    { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }, { type: 2, value: "localhost" }] },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem };
}

export type Pebble = { child: Child; directoryUrl: string; listenerCaFile: string; listenerCa: string; managementPort: number; stop: () => Promise<void> };

/** Pebble with its DNS from `dnsServer`, validating HTTP-01 on `httpPort` and TLS-ALPN-01 on `tlsPort`, no delays. */
export async function startPebble(options: { dir: string; dnsServer: string; ports: { acme: number; management: number; http: number; tls: number } }): Promise<Pebble> {
  const { certPem, keyPem } = listenerCertificate();
  const listenerCaFile = path.join(options.dir, "pebble-listener.pem");
  writeFileSync(listenerCaFile, certPem);
  writeFileSync(path.join(options.dir, "pebble-listener-key.pem"), keyPem, { mode: 0o600 });
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${options.ports.acme}`,
      managementListenAddress: `127.0.0.1:${options.ports.management}`,
      certificate: listenerCaFile,
      privateKey: path.join(options.dir, "pebble-listener-key.pem"),
      httpPort: options.ports.http,
      tlsPort: options.ports.tls,
      ocspResponderURL: "",
      externalAccountBindingRequired: false,
    },
  };
  const configFile = path.join(options.dir, "pebble.json");
  writeFileSync(configFile, JSON.stringify(config));
  const child = spawnLogged("pebble", "pebble", ["-config", configFile, "-dnsserver", options.dnsServer], {
    cwd: options.dir,
    // No sleeps before validating; no random nonce rejections (a test needs no retries to pass).
    env: { ...process.env, PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0" },
    logFile: path.join(options.dir, "pebble.log"),
  });
  const directoryUrl = `https://127.0.0.1:${options.ports.acme}/dir`;
  await waitFor("pebble to answer its directory", async () => ((await httpsGet(directoryUrl, { ca: certPem })).status === 200 ? true : undefined), 20_000, 100);
  return { child, directoryUrl, listenerCaFile, listenerCa: certPem, managementPort: options.ports.management, stop: child.stop };
}

export type Caddy = { child: Child; stop: () => Promise<void> };

/** Caddy running `caddyfile` (written to the directory), up once it listens on `httpsPort`. */
export async function startCaddy(options: { dir: string; caddyfile: string; env: Record<string, string>; httpsPort: number }): Promise<Caddy> {
  const file = path.join(options.dir, "Caddyfile");
  writeFileSync(file, options.caddyfile);
  const child = spawnLogged("caddy", "caddy", ["run", "--config", file, "--adapter", "caddyfile"], {
    cwd: options.dir,
    // Its own home and data directories: nothing of the machine's Caddy is read or written.
    env: { ...process.env, HOME: options.dir, XDG_DATA_HOME: path.join(options.dir, "data"), XDG_CONFIG_HOME: path.join(options.dir, "config"), ...options.env },
    logFile: path.join(options.dir, "caddy.log"),
  });
  await waitFor("caddy to listen", async () => {
    if (child.process.exitCode !== null) throw new Error(`caddy exited with ${child.process.exitCode}`);
    return (await portInUse(options.httpsPort)) ? true : undefined;
  }, 20_000, 100);
  return { child, stop: child.stop };
}

/** The answer, and the leaf certificate the server presented (its names and issuer). */
export type HttpsAnswer = { status: number; body: string; certificate: { subjectAltName: string; issuer: string } };

/**
 * GET over TLS trusting only `ca`. `connectTo` sends the request to that address while the URL's host is the SNI and
 * the name the certificate must carry (as a browser reaching a custom domain through DNS would). Bounded by `timeoutMs`.
 */
export function httpsGet(url: string, options: { ca: string; connectTo?: { host: string; port: number }; timeoutMs?: number }): Promise<HttpsAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: options.connectTo?.host ?? target.hostname,
        port: options.connectTo?.port ?? target.port,
        path: `${target.pathname}${target.search}`,
        servername: target.hostname.startsWith("[") || /^[\d.]+$/.test(target.hostname) ? undefined : target.hostname,
        headers: { Host: target.host },
        ca: options.ca,
        agent: false,
        timeout: options.timeoutMs ?? 10_000,
      },
      (response) => {
        const leaf = (response.socket as TLSSocket).getPeerCertificate();
        const certificate = { subjectAltName: leaf.subjectaltname ?? "", issuer: leaf.issuer?.CN ?? "" };
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, body, certificate }));
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer from ${url} within ${options.timeoutMs ?? 10_000} ms`)));
    request.on("error", reject);
    request.end();
  });
}
