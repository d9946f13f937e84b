// The shared body of a service process's entry point: read the configuration (exit listing what is wrong), start,
// and stop cleanly on SIGINT or SIGTERM.
import { ConfigError, loadConfig, type Config } from "./config";
import { redactUrls } from "./redact";

export function runProcess(name: string, start: (config: Config) => Promise<{ stop: () => Promise<void> }>): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  start(config).then(
    (running) => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) {
        process.once(signal, () => void running.stop().then(() => process.exit(0)));
      }
    },
    (error: unknown) => {
      // A start-up failure may quote a connection URL (the RPC's, with its provider key): printed redacted.
      console.error(`${name} failed to start: ${redactUrls(error instanceof Error ? error.message : String(error))}`);
      process.exit(1);
    },
  );
}
