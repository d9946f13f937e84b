// A local EU DPP registry for `npm start` and the tests, on the CIRPASS-2 mock registry's interface (POST
// /metadata/v1/registerDPP, its metadata fields and its { message } errors, the MODIFY update strategy by default),
// doing what Implementing Regulation (EU) 2026/1778 says the real registry does: it reads each registered passport
// from its live URL, checks the registration against the passport's EN 18223 header (product id, operator,
// granularity, commodity code, facilities, back-up URL, deactivation), and answers a proof of registration: an
// ES256 JWT over product id, commodity code, operator, its timestamp and the hash of the passport version it read,
// verifiable with the keys at /.well-known/jwks.json. Beyond the mock: a JSON array of up to 100 registrations at the
// same path (the Commission's upload limit), a `proof` in each entry, and GET /metadata/v1/{registryId}.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import Ajv from "ajv";
import canonicalize from "canonicalize";
import { keccak256, toUtf8Bytes } from "ethers";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type CryptoKey } from "jose";
import type { RegistrationMetadata } from "../../api/src/registry/registry-client";

export const REGISTRY_BATCH_LIMIT = 100;

export type UpdateStrategy = "MODIFY" | "APPEND_WITH_NEW_ID";

/** What the mock's schema admits beyond what we send: `deactivated` may be null, `dataCarrierTypes` absent. */
type Metadata = Omit<RegistrationMetadata, "deactivated" | "dataCarrierTypes"> & { deactivated?: boolean | null; dataCarrierTypes?: string[] };

export type LocalRegistryEntry = { registryId: string; createdAt: string; modifiedAt: string | null; metadata: Metadata; proof: string; dppHash: string };

/** The metadata JSON schema, after the mock's default schema's fields and rules (our own wording). */
const METADATA_SCHEMA = {
  type: "object",
  required: ["upi", "reoId", "liveURL", "backupURL", "commodityCode", "facilitiesId", "granularityLevel"],
  properties: {
    upi: { type: "string", minLength: 1, maxLength: 200 },
    reoId: { type: "string", minLength: 1, maxLength: 50 },
    liveURL: { type: "string", pattern: "^https?://", maxLength: 2000 },
    backupURL: { type: "string", pattern: "^https?://", maxLength: 2000 },
    commodityCode: { type: "string", pattern: "^[0-9]{4,10}$" },
    facilitiesId: { type: "array", minItems: 1, uniqueItems: true, items: { type: "string", maxLength: 250 } },
    granularityLevel: { enum: ["MODEL", "BATCH", "ITEM"] },
    deactivated: { type: ["boolean", "null"] },
    dataCarrierTypes: { type: "array", items: { enum: ["QR", "NFC", "RFID", "DATAMATRIX"] } },
  },
  // The mock's rule: an item says whether it is deactivated; a model or batch does not.
  if: { properties: { granularityLevel: { const: "ITEM" } } },
  then: { required: ["deactivated"] },
  else: { not: { required: ["deactivated"] } },
} as const;

class Refusal extends Error {}

export type LocalRegistryOptions = {
  /** Port on 127.0.0.1; 0 (default): a free one. */
  port?: number;
  /** When set, every call but the JWKS must carry `Authorization: Bearer <token>`. */
  token?: string;
  updateStrategy?: UpdateStrategy;
  /** Keeps the signing key here (made once), so proofs stay verifiable across restarts; else a key per process. */
  keyFile?: string;
  /** Time limit of one passport read. */
  fetchTimeoutMs?: number;
  /**
   * The key the registry reads passports with (`Authorization: Bearer`): an authority key, so the registry sees every
   * element (docs/access.md), as it must to hash the version; without one it reads as the public.
   */
  readerKey?: string;
};

export class LocalRegistry {
  /** Registrations per upload received, in order (a single registration counts 1). */
  readonly uploads: number[] = [];
  /** The upi of every registration received (each one of an upload), in the order they came: a resend shows twice. */
  readonly received: string[] = [];
  private readonly holds: Array<{ arrived: (upi: string) => void; released: Promise<string | undefined> }> = [];
  private readonly entries = new Map<string, LocalRegistryEntry>();
  private readonly byUpi = new Map<string, string>();
  private readonly validate = new Ajv({ allErrors: true }).compile(METADATA_SCHEMA);
  private server: Server | undefined;
  private keys: { privateKey: CryptoKey; publicJwk: JWK } | undefined;
  private port: number;
  private readerKey: string | undefined;
  url = "";

  constructor(private readonly options: LocalRegistryOptions = {}) {
    this.port = options.port ?? 0;
    this.readerKey = options.readerKey;
  }

  /** The key passports are read with from now on (an authority key issued once the service's database is up). */
  setReaderKey(key: string | undefined): void {
    this.readerKey = key;
  }

  /** Listens (again, on the same port after a stop); resolves with the base URL. */
  async start(): Promise<string> {
    this.keys ??= await signingKeys(this.options.keyFile);
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.server = server;
    const address = server.address();
    this.port = typeof address === "object" && address ? address.port : this.port;
    this.url = `http://127.0.0.1:${this.port}`;
    return this.url;
  }

  /** Stops listening (the registrations are kept in memory for a later start). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * For tests: the next registration received waits, before the registry reads its passport, until `release` is
   * called; `received` resolves with its upi when it arrives. Released with a reason, it is refused with that reason.
   */
  holdNext(): { received: Promise<string>; release: (refusal?: string) => void } {
    let arrived!: (upi: string) => void;
    let release!: (refusal?: string) => void;
    const received = new Promise<string>((resolve) => (arrived = resolve));
    const released = new Promise<string | undefined>((resolve) => (release = resolve));
    this.holds.push({ arrived, released });
    return { received, release };
  }

  /** Every registration held, oldest first. */
  registrations(): LocalRegistryEntry[] {
    return [...this.entries.values()];
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? "/", "http://registry");
      if (req.method === "GET" && url.pathname === "/.well-known/jwks.json") return send(res, 200, { keys: [this.keys!.publicJwk] });
      if (this.options.token && req.headers.authorization !== `Bearer ${this.options.token}`) return send(res, 401, { message: "Unauthorized: a bearer token is required" });
      if (req.method === "POST" && (url.pathname === "/metadata/v1/registerDPP" || url.pathname === "/metadata/v1" || url.pathname === "/metadata/v1/")) {
        const body = await readJson(req);
        if (Array.isArray(body)) {
          if (body.length === 0 || body.length > REGISTRY_BATCH_LIMIT) return send(res, 400, { message: `An upload carries 1 to ${REGISTRY_BATCH_LIMIT} registrations (got ${body.length}).` });
          this.uploads.push(body.length);
          const results = [];
          for (const item of body) results.push(await this.registerOrRefuse(item));
          return send(res, 200, { results });
        }
        this.uploads.push(1);
        const result = await this.registerOrRefuse(body);
        return send(res, result.status, result.entry ?? { message: result.message });
      }
      const read = /^\/metadata\/v1\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && read) {
        const entry = this.entries.get(decodeURIComponent(read[1]!));
        return entry ? send(res, 200, publicEntry(entry)) : send(res, 404, { message: "No registration with that id." });
      }
      send(res, 404, { message: "Not found." });
    } catch (error) {
      if (error instanceof Refusal) return send(res, 400, { message: error.message });
      send(res, 500, { message: error instanceof Error ? error.message : String(error) });
    }
  }

  private async registerOrRefuse(body: unknown): Promise<{ status: number; entry?: ReturnType<typeof publicEntry>; message?: string }> {
    const upi = String((body as { upi?: unknown } | null)?.upi);
    this.received.push(upi);
    const hold = this.holds.shift();
    if (hold) {
      hold.arrived(upi);
      const refusal = await hold.released;
      if (refusal !== undefined) return { status: 400, message: refusal };
    }
    try {
      return { status: 201, entry: publicEntry(await this.register(body)) };
    } catch (error) {
      if (error instanceof Refusal) return { status: 400, message: error.message };
      throw error;
    }
  }

  private async register(body: unknown): Promise<LocalRegistryEntry> {
    if (!this.validate(body)) {
      const problems = (this.validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message}`).join("; ");
      throw new Refusal(`The DPP metadata payload is not valid: ${problems}`);
    }
    const metadata = body as Metadata;
    const { dppHash } = await this.checkPassport(metadata);
    const now = new Date();
    const existing = this.byUpi.get(metadata.upi);
    const modify = existing !== undefined && (this.options.updateStrategy ?? "MODIFY") === "MODIFY";
    const registryId = modify ? existing : randomUUID();
    const proof = await new SignJWT({ registryId, commodityCode: metadata.commodityCode, reoId: metadata.reoId, dppHash })
      .setProtectedHeader({ alg: "ES256", kid: this.keys!.publicJwk.kid!, typ: "JWT" })
      .setIssuer(this.url)
      .setSubject(metadata.upi)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .sign(this.keys!.privateKey);
    const entry: LocalRegistryEntry = {
      registryId,
      createdAt: modify ? this.entries.get(registryId)!.createdAt : now.toISOString(),
      modifiedAt: modify ? now.toISOString() : null,
      metadata,
      proof,
      dppHash,
    };
    this.entries.set(registryId, entry);
    this.byUpi.set(metadata.upi, registryId);
    return entry;
  }

  /** Reads the passport at its live URL and refuses the registration when its header says otherwise; answers its hash. */
  private async checkPassport(metadata: Metadata): Promise<{ dppHash: string }> {
    let res: Response;
    try {
      const headers: Record<string, string> = { Accept: "application/json" };
      if (this.readerKey) headers.Authorization = `Bearer ${this.readerKey}`;
      res = await fetch(metadata.liveURL, { headers, signal: AbortSignal.timeout(this.options.fetchTimeoutMs ?? 10_000) });
    } catch (error) {
      throw new Refusal(`The passport could not be read at its live URL ${metadata.liveURL}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (res.status !== 200) throw new Refusal(`The passport could not be read at its live URL ${metadata.liveURL}: HTTP ${res.status}`);
    let dpp: Record<string, unknown>;
    try {
      dpp = (await res.json()) as Record<string, unknown>;
    } catch {
      throw new Refusal(`The live URL ${metadata.liveURL} did not answer a JSON passport.`);
    }
    const withheld = (dpp.access as { withheld?: string[] } | undefined)?.withheld ?? [];
    if (withheld.length > 0) {
      throw new Refusal(`The passport at ${metadata.liveURL} withholds elements from the registry (${withheld.join(", ")}), so the version it registers cannot be hashed: give the registry an authority key.`);
    }
    const specs = Array.isArray(dpp.contentSpecificationIds) ? (dpp.contentSpecificationIds as string[]) : [];
    const section = specs.length > 0 ? (dpp[specs[0]!] as Record<string, unknown> | undefined) : undefined;
    if (!section || typeof section !== "object") throw new Refusal("The passport at the live URL has no content section under its contentSpecificationIds.");
    const code = (section.textile as { commodity_code?: { cn8?: string; hs6?: string } } | undefined)?.commodity_code;
    const facilities = [dpp.facilityId].flat().filter((f): f is string => typeof f === "string");
    const mismatches: string[] = [];
    const same = (field: string, registered: unknown, passportField: string, inPassport: unknown) => {
      if (JSON.stringify(registered) !== JSON.stringify(inPassport)) mismatches.push(`${field} is ${JSON.stringify(registered)} but the passport's ${passportField} is ${JSON.stringify(inPassport ?? null)}`);
    };
    same("upi", metadata.upi, "uniqueProductIdentifier", dpp.uniqueProductIdentifier);
    same("reoId", metadata.reoId, "economicOperatorId", dpp.economicOperatorId);
    same("granularityLevel", metadata.granularityLevel, "granularity", typeof dpp.granularity === "string" ? dpp.granularity.toUpperCase() : dpp.granularity);
    same("facilitiesId", [...metadata.facilitiesId].sort(), "facilityId", facilities.sort());
    same("backupURL", metadata.backupURL, "backupUrl", dpp.backupUrl);
    if (metadata.commodityCode !== code?.cn8 && metadata.commodityCode !== code?.hs6) {
      mismatches.push(`commodityCode is "${metadata.commodityCode}" but the passport's textile.commodity_code is ${JSON.stringify(code ?? null)}`);
    }
    if (metadata.granularityLevel === "ITEM") same("deactivated", metadata.deactivated ?? false, "dppStatus (active: false)", dpp.dppStatus !== "active");
    if (mismatches.length > 0) throw new Refusal(`The registration does not match the passport at ${metadata.liveURL}: ${mismatches.join("; ")}.`);
    const canonical = canonicalize(section);
    if (canonical === undefined) throw new Refusal("The passport's content section cannot be canonicalised (RFC 8785).");
    return { dppHash: keccak256(toUtf8Bytes(canonical)) };
  }
}

/** Starts a local registry; `npm start` and the tests use it. */
export async function startLocalRegistry(options: LocalRegistryOptions = {}): Promise<LocalRegistry> {
  const registry = new LocalRegistry(options);
  await registry.start();
  return registry;
}

function publicEntry(entry: LocalRegistryEntry) {
  return { registryId: entry.registryId, createdAt: entry.createdAt, modifiedAt: entry.modifiedAt, metadata: entry.metadata, proof: entry.proof };
}

async function signingKeys(keyFile: string | undefined): Promise<{ privateKey: CryptoKey; publicJwk: JWK }> {
  if (keyFile && existsSync(keyFile)) {
    const jwk = JSON.parse(readFileSync(keyFile, "utf8")) as JWK;
    const { d: _d, ...publicJwk } = jwk;
    return { privateKey: (await importJWK(jwk, "ES256")) as CryptoKey, publicJwk };
  }
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  if (keyFile) {
    mkdirSync(path.dirname(keyFile), { recursive: true });
    writeFileSync(keyFile, JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: "ES256", use: "sig" }), { mode: 0o600 });
  }
  return { privateKey, publicJwk };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 5_000_000) throw new Refusal("The body is larger than 5 MB.");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new Refusal("The body is not JSON.");
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}
