// `npm run start:dispatcher`: the webhook dispatcher (and confirmation watcher) as its own process.
import pino from "pino";
import type { Config } from "../config";
import { runProcess } from "../process-main";
import { createDb } from "../db/knex";
import { migrateLatest } from "../db/migrate";
import { createLogger } from "../logger";
import { Dispatcher } from "./dispatcher";

export type RunningDispatcher = { dispatcher: Dispatcher; stop: () => Promise<void> };

/**
 * Starts a dispatcher with its own pool; `stop` finishes or releases in-flight attempts, then closes the pool.
 * Logs go to stdout unless `logFile` is given.
 */
export async function startDispatcher(config: Config, options: { logFile?: string } = {}): Promise<RunningDispatcher> {
  const destination = options.logFile ? pino.destination({ dest: options.logFile, mkdir: true, sync: false }) : undefined;
  const logger = createLogger(config.logLevel, destination).child({ component: "webhook-dispatcher" });
  // One connection per in-flight attempt (its outcome) plus claims and the watcher.
  const db = createDb(config.database, Math.min(config.webhooks.concurrency + 2, 20));
  await migrateLatest(db);
  const dispatcher = new Dispatcher({ config, db, logger });
  dispatcher.start();
  logger.info({ concurrency: config.webhooks.concurrency }, "webhook dispatcher started");
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await dispatcher.stop();
      await db.destroy();
      logger.info({ completed: dispatcher.completed }, "webhook dispatcher stopped");
    })();
    return stopping;
  };
  return { dispatcher, stop };
}

if (require.main === module) runProcess("webhook dispatcher", (config) => startDispatcher(config));
