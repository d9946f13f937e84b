// A bulk issuer replica for test/e2e/bulk-crash.test.ts: a process built by the API's composition root that runs only
// the work that carries a bulk issuance (the bulk-issuance job, the mint pump, a candidate ledger monitor), no HTTP.
// Killed by its own crash point (CRASH_AT, CRASH_AFTER); logs go to stderr; prints READY once its jobs run.
import { assembleService } from "../../api/src/assemble";
import { loadConfig } from "../../api/src/config";
import { createLogger } from "../../api/src/logger";

async function main() {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel, process.stderr).child({ replica: process.pid });
  const service = await assembleService(config, { jobs: ["mint-pump", "ledger-monitor", "bulk-issuance"], logger, migrate: false });
  process.stdout.write("READY\n");
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void service.stop().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
