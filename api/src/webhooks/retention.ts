// Keeps webhook history bounded: deliveries that finished (succeeded or failed for good) are deleted once older than
// the retention period, and then the bodies of events that no delivery needs any more. Work goes in batches, so no
// statement holds many rows locked; any number of dispatchers may run it (a row is deleted once, whoever gets it).
import type { Knex } from "../db/knex";
import type { Logger } from "../logger";
import { pruneWebhookHistory } from "./retention.repo";

const FIRST_RUN_MS = 60_000;
const INTERVAL_MS = 3_600_000;

/** Runs a pass a minute after start and then every hour, until stopped. */
export class WebhookRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly db: Knex,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopping = false;
    this.schedule(FIRST_RUN_MS);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.running = this.pass().finally(() => {
        this.running = undefined;
        if (this.timer) this.schedule(INTERVAL_MS);
      });
    }, ms);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    try {
      const pruned = await pruneWebhookHistory(this.db, this.retentionDays, new Date(), () => this.stopping);
      if (pruned.deliveries + pruned.events > 0) this.logger.info({ ...pruned, retentionDays: this.retentionDays }, "webhook history pruned");
    } catch (error) {
      this.logger.warn({ err: error }, "pruning webhook history failed; retrying in an hour");
    }
  }
}
