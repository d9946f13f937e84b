// Operator CLI: `npm run admin -- <command> [--options]`; commands live in scripts/admin/*, listed in registry.ts.
// Exit codes: 0 done, 1 the command failed (not found, conflict, database down), 2 wrong invocation or invalid value.
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../api/src/config";
import { createDb, type Knex } from "../api/src/db/knex";
import { AppError, ValidationError } from "../api/src/errors";
import { UsageError, type AdminCommand } from "./admin/command";
import { loadCommands } from "./admin/registry";

const GLOBAL_OPTIONS = {
  json: { type: "boolean", description: "print the result as JSON" },
  help: { type: "boolean", short: "h", description: "show help" },
} as const;

function overview(commands: AdminCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "Usage: npm run admin -- <command> [options]   (add --help after a command for its options, --json for JSON)",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Reads the database from DATABASE_URL (default: the local embedded server, as the API).",
  ].join("\n");
}

function commandHelp(command: AdminCommand): string {
  const options = { ...command.options, ...GLOBAL_OPTIONS };
  const flag = (name: string, spec: { type: string }) => `--${name}${spec.type === "string" ? " <value>" : ""}`;
  const width = Math.max(...Object.entries(options).map(([name, spec]) => flag(name, spec).length));
  return [
    `Usage: npm run admin -- ${command.name} [options]`,
    "",
    command.summary,
    "",
    ...Object.entries(options).map(([name, spec]) => {
      const required = "required" in spec && spec.required ? " (required)" : "";
      return `  ${flag(name, spec).padEnd(width)}  ${spec.description}${required}`;
    }),
  ].join("\n");
}

/** Only DATABASE_URL matters here; production keys the CLI does not use (signer, RPC) need not be set. */
function databaseUrl(env: NodeJS.ProcessEnv): string {
  try {
    return loadConfig(env).databaseUrl;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const own = error.problems.filter((problem) => problem.includes("DATABASE_URL"));
    if (own.length > 0) throw new UsageError(own.join("; "));
    return loadConfig({ SERVICE_MODE: "local", DATABASE_URL: env.DATABASE_URL }).databaseUrl;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof AppError) {
    const details = (error.details ?? []).map((d) => `\n  ${d.field}: ${d.problem}`).join("");
    return `${error.message}${details}`;
  }
  const pgCode = (error as { code?: string }).code;
  if (pgCode === "42P01") return "the database has no brand tables yet: run `npm run admin -- migrate` (or start the API once)";
  if (pgCode === "ECONNREFUSED" || pgCode === "3D000" || pgCode === "28P01") {
    return `cannot reach the database (${(error as Error).message}); check DATABASE_URL`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Runs one command line; `env` is the process's environment, or the one a test runs the CLI in. Returns the exit code. */
export async function main(argv: string[], out: (text: string) => void, err: (text: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const commands = await loadCommands();
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith("-") || name === "help") {
    const asked = name === "help" || name === "--help" || name === "-h";
    (asked ? out : err)(overview(commands));
    return asked ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    err(`Unknown command "${name}".\n\n${overview(commands)}`);
    return 2;
  }

  let db: Knex | undefined;
  let json = false;
  try {
    const options = Object.fromEntries(
      Object.entries({ ...command.options, ...GLOBAL_OPTIONS }).map(([key, spec]) => [key, { type: spec.type, ...("short" in spec ? { short: spec.short } : {}) }]),
    );
    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (parsed.values.help) {
      out(commandHelp(command));
      return 0;
    }
    json = parsed.values.json === true;
    for (const [key, spec] of Object.entries(command.options)) {
      if (spec.required && (parsed.values[key] === undefined || parsed.values[key] === "")) throw new UsageError(`--${key} is required`);
    }
    db = createDb(databaseUrl(env), 2);
    const result = await command.run({ db, options: parsed.values as Record<string, string | boolean | undefined>, env });
    out(json ? JSON.stringify(result.json, null, 2) : result.text);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`${command.name}: ${error.message}\n\n${commandHelp(command)}`);
      return 2;
    }
    const message = describeFailure(error);
    err(json ? JSON.stringify({ error: message, ...(error instanceof AppError ? { code: error.code } : {}) }) : `${command.name}: ${message}`);
    // A value the service rejects (a malformed slug, an unknown plan) is a wrong invocation too.
    return error instanceof ValidationError ? 2 : 1;
  } finally {
    await db?.destroy();
  }
}

if (require.main === module) {
  main(process.argv.slice(2), (text) => process.stdout.write(`${text}\n`), (text) => process.stderr.write(`${text}\n`)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`admin: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
