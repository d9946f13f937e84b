// The shape of an operator CLI command, the errors that set its exit code, and the shared option helpers.
import type { ParseArgsConfig } from "node:util";
import { ConfigError, loadConfig, type Config } from "../../api/src/config";
import type { Knex } from "../../api/src/db/knex";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>[string] & { description: string; required?: boolean };

export type CommandContext = {
  db: Knex;
  /** Parsed --options (strings and booleans) of the command. */
  options: Record<string, string | boolean | undefined>;
  /** The environment the CLI runs in (the process's, or the one a test hands to `main`). */
  env: NodeJS.ProcessEnv;
};

/** What a command hands back: `text` for people, `json` for scripts (--json). */
export type CommandResult = { text: string; json: unknown };

export type AdminCommand = {
  name: string;
  summary: string;
  options: Record<string, OptionSpec>;
  run: (context: CommandContext) => Promise<CommandResult>;
};

/** Wrong invocation: unknown command or option, missing or malformed value. Exit code 2. */
export class UsageError extends Error {}

/** The service's configuration, for commands that need more than the database (SECRETS_KEY, the URL policy, mail). */
export function serviceConfig(context: CommandContext): Config {
  try {
    return loadConfig(context.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

export const brandOption: Record<string, OptionSpec> = {
  brand: { type: "string", required: true, description: "slug of the brand" },
};

export function stringOption(context: CommandContext, name: string): string | undefined {
  const value = context.options[name];
  return typeof value === "string" ? value : undefined;
}

export function requiredOption(context: CommandContext, name: string): string {
  const value = stringOption(context, name);
  if (value === undefined || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value.trim();
}

export function integerOption(context: CommandContext, name: string, min: number, max: number): number | undefined {
  const raw = stringOption(context, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw.trim()) || value < min || value > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return value;
}

/** Rows as aligned columns, for list commands. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

export const limitText = (value: number | null) => (value === null ? "unlimited" : value.toLocaleString("en-US"));
