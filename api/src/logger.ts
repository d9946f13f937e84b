// Structured JSON logs (pino); credentials are redacted wherever they appear in a logged object.
import pino, { type Logger } from "pino";
import { redactUrls } from "./redact";

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
      // URLs carry credentials in places no path list can name (an RPC key inside an ethers error's message, its
      // info.requestUrl, a stack): every URL in the finished line is redacted, whatever field it sits in.
      hooks: { streamWrite: redactUrls },
    },
    destination,
  );
}
