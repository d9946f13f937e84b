// Keeps webhook history bounded: deliveries that finished (succeeded or failed for good) are deleted once older than
// the retention period, and then the bodies of events that no delivery needs any more. Work goes in batches, so no
// statement holds many rows locked; any number of dispatchers may run it (a row is deleted once, whoever gets it).
import type { Knex } from "../db/knex";
import type { Job, JobHealth } from "../jobs/job";
import { PeriodicJob } from "../jobs/periodic-job";
import type { Logger } from "../logger";
import { pruneWebhookHistory } from "./retention.repo";

const FIRST_RUN_MS = 60_000;
const INTERVAL_MS = 3_600_000;

/** Runs a pass a minute after start and then every hour, until stopped; a pass stops between batches on stop. */
export class WebhookRetention implements Job {
  readonly name = "webhook-retention";
  private readonly job: PeriodicJob<void>;

  constructor(
    private readonly db: Knex,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {
    this.job = new PeriodicJob({ name: this.name, intervalMs: INTERVAL_MS, firstRunAfterMs: FIRST_RUN_MS, logger, run: ({ signal }) => this.pass(signal) });
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  health(): JobHealth {
    return this.job.health();
  }

  private async pass(signal: AbortSignal): Promise<void> {
    const pruned = await pruneWebhookHistory(this.db, this.retentionDays, new Date(), () => signal.aborted);
    if (pruned.deliveries + pruned.events > 0) this.logger.info({ ...pruned, retentionDays: this.retentionDays }, "webhook history pruned");
  }
}
