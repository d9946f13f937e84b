// Background jobs (api/src/jobs): a failing job backs off and says so, stop waits for the run in progress and tells
// it to finish, claim-and-work keeps to its worker pool, and /readyz shows each job of the process (real Postgres,
// a chain nobody answers on).
import { expect } from "chai";
import { assembleService, type Service } from "../../api/src/assemble";
import { loadConfig } from "../../api/src/config";
import { claimAndWork } from "../../api/src/jobs/claim-and-work";
import { FAILING_AFTER } from "../../api/src/jobs/job";
import { PeriodicJob } from "../../api/src/jobs/periodic-job";
import { JobRunner } from "../../api/src/jobs/runner";
import { createLogger } from "../../api/src/logger";
import { freePort } from "../../scripts/lib/processes";
import { json } from "../support/http";
import { createTestDatabase } from "../support/hooks";

const silent = createLogger("silent");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe("background jobs", () => {
  describe("a periodic job", () => {
    it("backs off after failures, doubling up to its bound, and is healthy again after a success", async () => {
      const starts: number[] = [];
      let failFor = 4;
      const job = new PeriodicJob({
        name: "flaky",
        intervalMs: 20,
        maxBackoffMs: 100,
        logger: silent,
        run: async () => {
          starts.push(Date.now());
          if (starts.length <= failFor) throw new Error(`attempt ${starts.length} failed\nsecond line`);
        },
      });
      expect([0, 1, 2, 3, 4, 10].map((n) => job.delayAfter(n))).to.deep.equal([20, 40, 80, 100, 100, 100]);
      job.start();
      try {
        await until("three failures", () => starts.length >= FAILING_AFTER);
        const failing = job.health();
        expect(failing).to.include({ ok: false, running: true, last_success_at: null, last_error: `attempt ${FAILING_AFTER} failed` });
        expect(failing.consecutive_failures).to.be.at.least(FAILING_AFTER);
        expect(failing.last_failure_at).to.be.a("string");
        await until("a success", () => starts.length >= 5);
        failFor = 0;
        await until("the health figure to clear", () => job.health().consecutive_failures === 0);
      } finally {
        await job.stop();
      }
      // Each wait after a failure is at least the backoff (timers never fire early): 40, 80, 100, 100 ms.
      const gaps = starts.slice(1, 5).map((at, i) => at - starts[i]!);
      gaps.forEach((gap, i) => expect(gap, `wait after failure ${i + 1}`).to.be.at.least([40, 80, 100, 100][i]! - 2));
      const healthy = job.health();
      expect(healthy).to.include({ ok: true, running: false, consecutive_failures: 0 });
      expect(healthy.last_success_at).to.be.a("string");
      // The last error stays visible to an operator after recovery.
      expect(healthy.last_error).to.equal("attempt 4 failed");
    });

    it("stop waits for the run in progress and aborts its signal; nothing runs after", async () => {
      let release!: () => void;
      let seen: AbortSignal | undefined;
      let runs = 0;
      let finished = false;
      const job = new PeriodicJob({
        name: "slow",
        intervalMs: 10,
        logger: silent,
        run: async ({ signal }) => {
          runs += 1;
          seen = signal;
          await new Promise<void>((resolve) => (release = resolve));
          finished = true;
        },
      });
      job.start();
      await until("the run to start", () => runs === 1);
      let stopped = false;
      const stopping = job.stop().then(() => (stopped = true));
      await sleep(50);
      expect(stopped, "stop resolved while a run was in progress").to.equal(false);
      expect(seen!.aborted).to.equal(true);
      release();
      await stopping;
      expect(finished).to.equal(true);
      await sleep(50);
      expect(runs).to.equal(1);
      expect(job.health()).to.include({ running: false, runs: 1, consecutive_failures: 0 });
    });

    it("wake runs again at once after the run in progress; not started, it runs once by itself", async () => {
      let runs = 0;
      const job = new PeriodicJob({ name: "woken", intervalMs: 60_000, logger: silent, run: async () => void (runs += 1) });
      job.wake();
      await until("the unstarted run", () => runs === 1);
      // Started while that run is still settling, the first run would be that one: wait until it has.
      await sleep(20);
      job.start();
      await until("the first run", () => runs === 2);
      job.wake();
      await until("the woken run", () => runs === 3, 2000);
      await job.stop();
    });
  });

  it("claim-and-work keeps to its pool, claims again while batches come back full, and survives an item's failure", async () => {
    const due = Array.from({ length: 23 }, (_, i) => i);
    let busy = 0;
    let most = 0;
    const claims: number[] = [];
    const failed: number[] = [];
    const worked = await claimAndWork({
      claim: async (limit) => {
        claims.push(limit);
        return due.splice(0, limit);
      },
      work: async (item) => {
        busy += 1;
        most = Math.max(most, busy);
        await sleep(2);
        busy -= 1;
        if (item === 7) throw new Error("seven");
      },
      failed: (item) => failed.push(item),
      batch: 10,
      concurrency: 3,
      untilShort: true,
    });
    expect(worked).to.equal(23);
    expect(claims).to.deep.equal([10, 10, 10]);
    expect(most).to.equal(3);
    expect(failed).to.deep.equal([7]);
  });

  it("a runner stops its jobs last started first and reports each by name", async () => {
    const order: string[] = [];
    const job = (name: string) => new PeriodicJob({ name, intervalMs: 60_000, logger: silent, run: async () => void order.push(`run ${name}`) });
    const a = job("a");
    const b = job("b");
    const runner = new JobRunner([a, b]);
    expect(() => runner.add(job("a"))).to.throw("two jobs named a");
    runner.start();
    await until("both runs", () => order.length === 2);
    const stopA = a.stop.bind(a);
    const stopB = b.stop.bind(b);
    a.stop = () => (order.push("stop a"), stopA());
    b.stop = () => (order.push("stop b"), stopB());
    await runner.stop();
    expect(order.slice(2)).to.deep.equal(["stop b", "stop a"]);
    expect(Object.keys(runner.health())).to.deep.equal(["a", "b"]);
  });

  describe("/readyz", () => {
    let service: Service;

    before(async () => {
      // Nothing answers on the chain's port: the ledger monitor's runs fail, the mint pump's (no claims) succeed.
      const port = await freePort();
      const config = loadConfig({
        SERVICE_MODE: "local",
        LOG_LEVEL: "silent",
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: await createTestDatabase("jobs"),
        RPC_URL: `http://127.0.0.1:${await freePort()}`,
        CHAIN_MONITOR_INTERVAL_MS: "20",
      });
      service = await assembleService(config, { http: { host: "127.0.0.1", port }, jobs: ["mint-pump", "ledger-monitor", "call-meter-flush"], poolSize: 5 });
    });
    after(() => service?.stop());

    it("shows each job of the process with its figures, a failing one with its error", async () => {
      await until("the monitor to fail three times", () => service.jobs.health()["ledger-monitor"]!.consecutive_failures >= FAILING_AFTER);
      await until("the pump to succeed", () => service.jobs.health()["mint-pump"]!.last_success_at !== null);
      const res = await fetch(`${service.url}/readyz`);
      const body = await json(res);
      expect(Object.keys(body.jobs)).to.have.members(["mint-pump", "ledger-monitor", "call-meter-flush"]);
      const monitor = body.jobs["ledger-monitor"];
      expect(monitor).to.include({ ok: false, running: true, last_success_at: null });
      expect(monitor.consecutive_failures).to.be.at.least(FAILING_AFTER);
      expect(monitor.last_error).to.be.a("string").and.not.equal("");
      expect(body.jobs["mint-pump"]).to.include({ ok: true, running: true, consecutive_failures: 0 });
      // The chain is down, which is what makes it not ready; a failing job alone does not.
      expect(res.status).to.equal(503);
      expect(body.checks.chain.ok).to.equal(false);
    });
  });
});
