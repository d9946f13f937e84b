// CPU time of local processes and of the machine from /proc, for the benchmarks that report CPU per unit of work
// (bench:scale, bench:run, bench:volume).
import { readFileSync, readdirSync } from "node:fs";

/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

/** CPU seconds a process has used so far (user + system), from /proc/<pid>/stat; with `children`, its reaped children's too. */
export function cpuSeconds(pid: number, children = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces: state is field 3, utime 14.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
    return ticks / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Postgres' CPU seconds: the postmaster, its live backends, and the backends that have ended. */
export function postgresCpuSeconds(postmaster: number): number {
  let total = cpuSeconds(postmaster, true);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster) total += cpuSeconds(Number(entry));
    } catch {
      // ended between the listing and the read: its time is in the postmaster's children's count.
    }
  }
  return total;
}

/**
 * The machine's CPU seconds so far, over all cores, from /proc/stat: `busy` (user, nice, system, irq, softirq, steal)
 * and `all` (busy, idle and iowait).
 */
export function machineCpuSeconds(): { busy: number; all: number } {
  const stat = readFileSync("/proc/stat", "utf8");
  // The first line sums every core: "cpu  user nice system idle iowait irq softirq steal guest guest_nice".
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = stat.slice(0, stat.indexOf("\n")).trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy / TICKS_PER_SECOND, all: (busy + idle + iowait) / TICKS_PER_SECOND };
}
