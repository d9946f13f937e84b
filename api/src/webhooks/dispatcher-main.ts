// `npm run start:dispatcher`: the webhook dispatcher, the confirmation watcher and history retention as their own
// process, assembled by assemble.ts.
import pino from "pino";
import { DISPATCHER_JOBS, assembleService } from "../assemble";
import type { Config } from "../config";
import { createLogger } from "../logger";
import { runProcess } from "../process-main";
import type { Dispatcher } from "./dispatcher";

export type RunningDispatcher = { dispatcher: Dispatcher; stop: () => Promise<void> };

/**
 * Starts a dispatcher with its own pool; `stop` finishes or releases in-flight attempts, then closes the pool.
 * Logs go to stdout unless `logFile` is given.
 */
export async function startDispatcher(config: Config, options: { logFile?: string } = {}): Promise<RunningDispatcher> {
  const destination = options.logFile ? pino.destination({ dest: options.logFile, mkdir: true, sync: false }) : undefined;
  const logger = createLogger(config.logLevel, destination).child({ component: "webhook-dispatcher" });
  // One connection per in-flight attempt (its outcome) plus claims and the watcher.
  const poolSize = Math.min(config.webhooks.concurrency + 2, 20);
  const service = await assembleService(config, { jobs: DISPATCHER_JOBS, logger, poolSize });
  const dispatcher = service.dispatcher!;
  logger.info({ concurrency: config.webhooks.concurrency }, "webhook dispatcher started");
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await service.stop();
      logger.info({ completed: dispatcher.completed }, "webhook dispatcher stopped");
    })();
    return stopping;
  };
  return { dispatcher, stop };
}

if (require.main === module) runProcess("webhook dispatcher", (config) => startDispatcher(config));
