// What a back-up holds of each primary and how far behind it is: the progress of replication, for the status route.
import type { AppDeps } from "../deps";
import { backupStatus, refusalsOf } from "./backup.repo";

/** Refusals listed per primary (the latest; the count covers all). */
const REFUSALS_SHOWN = 20;

export async function replicationStatus(deps: Pick<AppDeps, "config" | "db" | "jobs">) {
  const configured = new Set(deps.config.backup.primaries.map((p) => p.baseUrl));
  const rows = (await backupStatus(deps.db)).filter((row) => configured.has(row.base_url));
  const now = Date.now();
  const primaries = await Promise.all(
    rows.map(async (row) => ({
      baseUrl: row.base_url,
      passports: row.passports,
      versions: row.versions,
      refusedVersions: row.refused,
      lastRunAt: row.last_run_at?.toISOString() ?? null,
      lastSuccessAt: row.last_success_at?.toISOString() ?? null,
      // How old the copy may be: changes made since the last run that read the whole feed are not in it yet.
      lagSeconds: row.last_success_at ? Math.max(0, Math.round((now - row.last_success_at.getTime()) / 1000)) : null,
      lastError: row.last_error,
      refusals: (await refusalsOf(deps.db, row.id, REFUSALS_SHOWN)).map((r) => ({
        dppId: r.dpp_id,
        version: r.version,
        reason: r.reason,
        computedHash: r.computed_hash,
        chainHash: r.chain_hash,
        lastAt: r.last_at.toISOString(),
        times: r.times,
      })),
    })),
  );
  const job = deps.jobs.health()["backup-replication"] ?? null;
  return { backupOf: deps.config.backup.primaries.map((p) => p.baseUrl), primaries, job };
}
