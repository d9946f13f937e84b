// A per-process cache of valid API keys, so an authenticated request needs no key lookup. It is correct only while
// it hears about every change: a trigger (migration 007) sends NOTIFY brand_auth on any change to keys or brands,
// from any process, and each cache clears itself on it. While its LISTEN connection is down it serves nothing.
import pg from "pg";
import type { Logger } from "../logger";
import type { BrandRecord } from "./repo";

export type CachedKey = { keyId: number; keyHash: Buffer; lastUsedAt: Date | null; brand: BrandRecord; validUntil: number };

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const RECONNECT_MS = 1000;

/** Every cache of this process, so a change made here clears them at once, before its notification arrives. */
const caches = new Set<KeyCache>();

export function invalidateKeyCaches(): void {
  for (const cache of caches) cache.clear();
}

export class KeyCache {
  private readonly entries = new Map<string, CachedKey>();
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private reconnect: NodeJS.Timeout | undefined;
  /** Notifications heard so far: lets a caller see that a change made elsewhere has reached this process. */
  notifications = 0;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {
    caches.add(this);
  }

  /** Starts listening; until it listens (and whenever it does not), the cache is bypassed. */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: "passport-registry-key-cache" });
    const drop = (error?: unknown) => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = undefined;
      this.clear();
      client.removeAllListeners();
      void client.end().catch(() => undefined);
      if (this.closed) return;
      if (error) this.logger.warn({ err: error }, "key cache: LISTEN connection lost; serving keys from the database");
      this.reconnect = setTimeout(() => void this.start().catch(() => undefined), RECONNECT_MS);
      this.reconnect.unref();
    };
    this.client = client;
    client.on("notification", () => {
      this.notifications += 1;
      this.clear();
    });
    client.on("error", drop);
    client.on("end", () => drop());
    try {
      await client.connect();
      await client.query("LISTEN brand_auth");
      // Anything cached before LISTEN took effect may predate a change nobody told us about.
      this.clear();
      this.listening = true;
    } catch (error) {
      drop(error);
      throw error;
    }
  }

  get(hashHex: string): CachedKey | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(hashHex);
    if (!entry) return undefined;
    if (entry.validUntil <= Date.now()) {
      this.entries.delete(hashHex);
      return undefined;
    }
    return entry;
  }

  /** Keeps a valid key for a minute at most, and never past its revocation time (a rotation's grace period). */
  set(hashHex: string, found: Omit<CachedKey, "validUntil">, revokedAt: Date | null): void {
    if (!this.listening) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const until = Math.min(Date.now() + TTL_MS, revokedAt ? revokedAt.getTime() : Infinity);
    this.entries.set(hashHex, { ...found, validUntil: until });
  }

  clear(): void {
    this.entries.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    caches.delete(this);
    clearTimeout(this.reconnect);
    this.listening = false;
    this.clear();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
