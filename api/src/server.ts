// `npm run start:api`: the API process (HTTP listener on the configured host and the API's jobs), assembled by
// assemble.ts; graceful shutdown on SIGINT and SIGTERM.
import type { Server } from "node:http";
import { API_JOBS, assembleService } from "./assemble";
import type { Config } from "./config";
import { runProcess } from "./process-main";

export type RunningApi = { server: Server; url: string; stop: () => Promise<void> };

/** Starts the API with `config`; resolves once it listens. Logs go to stdout unless `logFile` is given. */
export async function startApi(config: Config, options: { logFile?: string } = {}): Promise<RunningApi> {
  const service = await assembleService(config, { http: true, jobs: API_JOBS, logFile: options.logFile });
  return { server: service.server!, url: service.url!, stop: service.stop };
}

if (require.main === module) runProcess("api", (config) => startApi(config));
