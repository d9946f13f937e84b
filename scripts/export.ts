// `npm run export -- [--out <file>] [--brand <slug>]`: writes the self-verifying archive of every passport (or one
// brand's) to a .tar.gz (docs/archive.md), with progress on stderr. Reads the database and the signing key the API
// uses (its configuration: DATABASE_URL and the rest, local mode's defaults otherwise); nothing is sent to the chain.
// Exit codes: 0 written, 1 failed (database unreachable, write error), 2 wrong invocation or configuration.
import { buildAppDeps } from "../api/src/assemble";
import { createWriteStream, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { archiveName, passportArchive, type ArchiveScope } from "../api/src/archive/archive";
import { createChainAccess } from "../api/src/chain/access";
import { createProvider } from "../api/src/chain/provider";
import { ConfigError, loadConfig, type Config } from "../api/src/config";
import { createDb } from "../api/src/db/knex";
import type { AppDeps } from "../api/src/deps";
import { createLogger } from "../api/src/logger";

const USAGE = `Usage: npm run export -- [--out <file.tar.gz>] [--brand <slug>]

Writes every minted passport (or one brand's) with its content as hashed, chain anchor, record and signed
credential, the did.json and a verify script, to a .tar.gz (default: .data/<archive name>.tar.gz).
Uses the API's configuration (DATABASE_URL, ...). In local mode the embedded Postgres runs only while
\`npm start\` does: start the stack first.`;

export async function main(argv: string[], err: (line: string) => void): Promise<number> {
  let values: { out?: string; brand?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, options: { out: { type: "string" }, brand: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true }));
  } catch (error) {
    err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    err(USAGE);
    return 0;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err(`export: the configuration is not valid:\n  ${error.problems.join("\n  ")}`);
    return 2;
  }

  const logger = createLogger("silent");
  const db = createDb(config.databaseUrl, 2);
  const provider = createProvider(config.rpcUrl, config.chainId);
  const deps: AppDeps = buildAppDeps({ config, db, provider, chain: createChainAccess(config, provider, db, logger), logger });
  try {
    try {
      await db.raw("SELECT 1");
    } catch (error) {
      err(
        `export: cannot reach the database (${(error as Error).message}).\n` +
          (config.mode === "local" ? "In local mode start the stack first (`npm start`): its embedded Postgres runs only while it does." : "Check DATABASE_URL."),
      );
      return 1;
    }
    let scope: ArchiveScope = { all: true };
    let label = "all";
    if (values.brand !== undefined) {
      const brand = await db("app.brands").where({ slug: values.brand }).first<{ id: number; slug: string } | undefined>("id", "slug");
      if (!brand) {
        err(`export: no brand with slug "${values.brand}"`);
        return 2;
      }
      scope = { brandId: brand.id };
      label = brand.slug;
    }
    const root = archiveName(label, new Date());
    const out = path.resolve(values.out ?? path.join(__dirname, "..", ".data", `${root}.tar.gz`));
    mkdirSync(path.dirname(out), { recursive: true });
    // Written aside and renamed when complete: a failed export never leaves a file that looks like an archive.
    const aside = `${out}.partial`;
    let credentials = 0;
    const archive = passportArchive(deps, scope, {
      root,
      onProgress: ({ done, total, uid, credential }) => {
        if (credential) credentials += 1;
        err(`[${done}/${total}] ${uid}${credential ? "" : " (no credential)"}`);
      },
    });
    try {
      await pipeline(archive, createWriteStream(aside));
    } catch (error) {
      rmSync(aside, { force: true });
      throw error;
    }
    renameSync(aside, out);
    err(`Wrote ${out} (${credentials} credentials). Check it with: tar xzf <file> && cd ${root}/verify && npm install && node verify.js --rpc <RPC URL>`);
    return 0;
  } catch (error) {
    err(`export: ${(error as Error).message}`);
    return 1;
  } finally {
    provider.destroy();
    await db.destroy();
  }
}

if (require.main === module) {
  main(process.argv.slice(2), (line) => process.stderr.write(`${line}\n`)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
