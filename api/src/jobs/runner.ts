// The jobs one process runs: started together, stopped in reverse order of start (each waits for its run in
// progress), and their health figures, by name, for /readyz. Adding a job kind is adding a Job here.
import type { Job, JobHealth } from "./job";

export class JobRunner {
  private readonly jobs = new Map<string, Job>();
  private started = false;

  constructor(jobs: Job[] = []) {
    for (const job of jobs) this.add(job);
  }

  /** Adds a job; started at once if the runner is. Names are unique: they are what /readyz reports. */
  add(job: Job): this {
    if (this.jobs.has(job.name)) throw new Error(`two jobs named ${job.name}`);
    this.jobs.set(job.name, job);
    if (this.started) job.start();
    return this;
  }

  get names(): string[] {
    return [...this.jobs.keys()];
  }

  start(): void {
    this.started = true;
    for (const job of this.jobs.values()) job.start();
  }

  /** Stops the named jobs (all by default), last started first; each waits for its run in progress. */
  async stop(names: readonly string[] = this.names): Promise<void> {
    for (const job of [...this.jobs.values()].reverse()) if (names.includes(job.name)) await job.stop();
  }

  health(): Record<string, JobHealth> {
    return Object.fromEntries([...this.jobs].map(([name, job]) => [name, job.health()]));
  }
}
