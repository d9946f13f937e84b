// A per-process cache of valid API keys, so an authenticated request needs no key lookup. It is correct only while
// it hears about every change: a trigger (migration 007) sends NOTIFY brand_auth on any change to keys or brands,
// from any process, and each cache clears itself on it. While its LISTEN connection is down it serves nothing, and
// no entry lives longer than 2 s, so a revocation holds on every replica within 2 s even if a notification is lost.
import pg from "pg";
import type { Logger } from "../logger";
import type { BrandRecord } from "./brands.repo";

export type CachedKey = { keyId: number; keyHash: Buffer; lastUsedAt: Date | null; brand: BrandRecord; validUntil: number };

/** The longest a revoked key can still be served from a cache: the promise is "revocation holds within 2 s". */
const MAX_ENTRY_AGE_MS = 2000;
const MAX_ENTRIES = 10_000;
const RECONNECT_MS = 1000;

/** Every cache of this process, so a change made here clears them at once, before its notification arrives. */
const caches = new Set<KeyCache>();

export function invalidateKeyCaches(): void {
  for (const cache of caches) cache.clear();
}

export class KeyCache {
  private readonly entries = new Map<string, CachedKey>();
  private clears = 0;
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

  /**
   * Changes each time the cache is cleared (a notification, a change made in this process, LISTEN lost or regained).
   * A caller reads it before looking a key up and hands it to set(): a lookup that raced a change is not kept.
   */
  get generation(): number {
    return this.clears;
  }

  /**
   * Keeps a valid key for MAX_ENTRY_AGE_MS at most, and never past its revocation time (a rotation's grace period).
   * Nothing is kept if the cache was cleared since `generation` was read: the lookup may have read the key just
   * before a revocation whose notification has arrived since, and would otherwise serve it after it.
   */
  set(hashHex: string, found: Omit<CachedKey, "validUntil">, revokedAt: Date | null, generation: number): void {
    if (!this.listening || generation !== this.clears) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const until = Math.min(Date.now() + MAX_ENTRY_AGE_MS, revokedAt ? revokedAt.getTime() : Infinity);
    this.entries.set(hashHex, { ...found, validUntil: until });
  }

  clear(): void {
    this.clears += 1;
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
