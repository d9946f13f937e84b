// The registry client over the CIRPASS-2 mock EU registry's HTTP interface (github.com/CIRPASS-2/mock-eu-registry):
// POST /metadata/v1/registerDPP with one metadata object, 201 with { registryId, createdAt, modifiedAt, metadata }, or
// 400 with { message } (or the DPP validator's report). What the mock lacks, the local registry adds and this client
// uses when present: a JSON array of up to 100 registrations at the same path (REGISTRY_BATCH_UPLOADS), a `proof`
// (an ES256 JWT) in each entry, verified against /.well-known/jwks.json, and GET /metadata/v1/{registryId}.
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { Config } from "../config";
import {
  RegistryUnavailableError,
  type ProofClaims,
  type RegistrationMetadata,
  type RegistrationOutcome,
  type RegistryClient,
  type RegistryEntry,
} from "./registry-client";

/** Registrations per upload: the Commission's web app takes files of at most 100 (Implementing Regulation (EU) 2026/1778). */
export const REGISTRY_MAX_BATCH = 100;

type Settings = Config["registry"] & { url: string };

export class CirpassRegistryClient implements RegistryClient {
  readonly maxBatch: number;
  private keys: JWTVerifyGetKey | undefined;

  constructor(private readonly settings: Settings) {
    this.maxBatch = settings.batchUploads ? REGISTRY_MAX_BATCH : 1;
  }

  async register(entries: RegistrationMetadata[]): Promise<RegistrationOutcome[]> {
    if (entries.length > this.maxBatch) throw new Error(`at most ${this.maxBatch} registrations per call (got ${entries.length})`);
    if (entries.length === 0) return [];
    if (!this.settings.batchUploads) return [await this.registerOne(entries[0]!)];
    const res = await this.call("POST", "/metadata/v1/registerDPP", entries);
    if (res.status !== 200) throw await unavailable(res);
    const body = (await res.json()) as { results?: Array<{ status: number; entry?: RegistryEntry; message?: string }> };
    if (!Array.isArray(body.results) || body.results.length !== entries.length) throw new RegistryUnavailableError("the registry answered a batch with a different number of results");
    return body.results.map((result) => (result.status === 201 && result.entry ? { ok: true, entry: entryOf(result.entry) } : { ok: false, reason: result.message ?? `refused (${result.status})` }));
  }

  async read(registryId: string): Promise<RegistryEntry | undefined> {
    const res = await this.call("GET", `/metadata/v1/${encodeURIComponent(registryId)}`);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw await unavailable(res);
    return entryOf((await res.json()) as RegistryEntry);
  }

  async verifyProof(proof: string): Promise<ProofClaims> {
    this.keys ??= createRemoteJWKSet(new URL(`${this.settings.url}/.well-known/jwks.json`), { timeoutDuration: this.settings.timeoutMs });
    const { payload } = await jwtVerify(proof, this.keys, { algorithms: ["ES256"], issuer: this.settings.url });
    const text = (name: string) => {
      const value = payload[name];
      if (typeof value !== "string" || value === "") throw new Error(`the proof has no ${name}`);
      return value;
    };
    if (typeof payload.iat !== "number") throw new Error("the proof has no timestamp (iat)");
    return { registryId: text("registryId"), upi: text("sub"), commodityCode: text("commodityCode"), reoId: text("reoId"), dppHash: text("dppHash"), issuedAt: new Date(payload.iat * 1000) };
  }

  private async registerOne(entry: RegistrationMetadata): Promise<RegistrationOutcome> {
    const res = await this.call("POST", "/metadata/v1/registerDPP", entry);
    if (res.status === 201 || res.status === 200) return { ok: true, entry: entryOf((await res.json()) as RegistryEntry) };
    // 400: the mock's schema refused the metadata, or its validator the passport: retrying the same entry cannot help.
    if (res.status === 400 || res.status === 422) return { ok: false, reason: await reasonOf(res) };
    throw await unavailable(res);
  }

  private async call(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (this.settings.token) headers.Authorization = `Bearer ${this.settings.token}`;
    try {
      return await fetch(`${this.settings.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(this.settings.timeoutMs) });
    } catch (error) {
      throw new RegistryUnavailableError(`the registry could not be reached (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}

function entryOf(raw: RegistryEntry): RegistryEntry {
  if (typeof raw?.registryId !== "string" || raw.registryId === "") throw new RegistryUnavailableError("the registry answered without a registryId");
  return { registryId: raw.registryId, createdAt: raw.createdAt ?? null, modifiedAt: raw.modifiedAt ?? null, metadata: raw.metadata, proof: typeof raw.proof === "string" ? raw.proof : null };
}

/** The registry's own words for a refusal: { message } or a validation report's message and invalid properties. */
async function reasonOf(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { message?: string; invalidProperties?: Array<{ reason?: string }> | null };
    const details = (body.invalidProperties ?? []).map((p) => p.reason).filter(Boolean);
    return [body.message, ...details].filter(Boolean).join("; ").slice(0, 2000) || text.slice(0, 2000);
  } catch {
    return text.slice(0, 2000) || `refused (${res.status})`;
  }
}

async function unavailable(res: Response): Promise<RegistryUnavailableError> {
  return new RegistryUnavailableError(`the registry answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}
