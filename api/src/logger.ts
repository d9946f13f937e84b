// Structured JSON logs (pino); credentials are redacted wherever they appear in a logged object.
import pino, { type Logger } from "pino";

export type { Logger };

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "passport-registry" },
      redact: {
        paths: [
          "req.headers.authorization",
          "req.headers.cookie",
          "*.password",
          "*.apiKey",
          "*.api_key",
          "*.signingSecret",
          "*.signing_secret",
          "*.privateKey",
        ],
        censor: "[redacted]",
      },
    },
    destination,
  );
}
