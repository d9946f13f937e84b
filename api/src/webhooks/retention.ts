// Keeps webhook history bounded: deliveries that finished (succeeded or failed for good) are deleted once older than
// the retention period, and then the bodies of events that no delivery needs any more. Work goes in batches, so no
// statement holds many rows locked; any number of dispatchers may run it (a row is deleted once, whoever gets it).
import type { Knex } from "../db/knex";
import { PeriodicJobBase, type RunContext } from "../jobs/periodic-job";
import type { Logger } from "../logger";
import { pruneWebhookHistory } from "./retention.repo";

const FIRST_RUN_MS = 60_000;
const INTERVAL_MS = 3_600_000;

/** Runs a pass a minute after start and then every hour, until stopped; a pass stops between batches on stop. */
export class WebhookRetention extends PeriodicJobBase<void> {
  constructor(
    private readonly db: Knex,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {
    super({ name: "webhook-retention", intervalMs: INTERVAL_MS, firstRunAfterMs: FIRST_RUN_MS, logger });
  }

  protected async run({ signal }: RunContext): Promise<void> {
    const pruned = await pruneWebhookHistory(this.db, this.retentionDays, new Date(), () => signal.aborted);
    if (pruned.deliveries + pruned.events > 0) this.logger.info({ ...pruned, retentionDays: this.retentionDays }, "webhook history pruned");
  }
}
