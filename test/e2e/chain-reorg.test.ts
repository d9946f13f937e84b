// Reorganisations under our own writes (issue 15), on a private local stack (chain, contracts, indexer, API,
// dispatcher, a real webhook receiver) with CONFIRMATIONS=5: a mint, a tag assignment and a supply-chain event are
// each reorganised 1, 3 (shallower than the depth) and 10 blocks deep (deeper): snapshot, the write, blocks mined one
// at a time until it is that deep, revert, and a longer branch of other accounts' transfers. Sampled after every
// block: no record shows verified for a transaction the chain does not hold, no event goes out before its
// transaction is at the depth. Afterwards: the indexer, the public record and app.passports match the new chain, the
// write is on it exactly once, every event was delivered exactly once, and the reorganisation was recorded (deep when
// it was deeper than the depth).
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { Interface, ZeroHash, type Log } from "ethers";
import { ProductPassport__factory } from "../../typechain-types";
import { findIndexedPassport, listSupplyChainEvents } from "../../api/src/onchain/passports.repo";
import { getBrand } from "../../api/src/brands/service";
import { createLogger } from "../../api/src/logger";
import { tokenIdOf } from "../../api/src/passports/content";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { setDashboardWebhook } from "../../api/src/webhooks/endpoints";
import { seedDemo, type DemoState } from "../../scripts/lib/seed";
import { startStack, type Stack } from "../../scripts/lib/stack";
import { waitFor } from "../../scripts/lib/processes";
import { ChainControl } from "../support/chain-control";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";
import { waitForIndexer } from "../support/shared-stack";
import { startWebhookReceiver, type Delivery, type WebhookReceiver } from "../support/webhook-receiver";

const CONFIRMATIONS = 5;
const DEPTHS = [1, 3, 10];
const WRITES = ["mint", "tag", "event"] as const;
type Write = (typeof WRITES)[number];
/** After each mined block: long enough for the indexer, the ledger monitor and the dispatcher to act on it. */
const SETTLE_MS = 300;
/** Blocks mined after the new branch, at most, for the write to be back at the depth and its events out. */
const HEAL_BLOCKS = 30;
/** Then this long without mining, for the indexer, the watcher and the dispatcher of a loaded machine to catch up. */
const LATE_MS = 30_000;
/** A step of a case slower than this is noted in the table, with its name. */
const SLOW_STEP_MS = 2_000;
const FACTORY = 1001;

/** Chain-derived events of each write, by receiver path. */
const EVENTS: Record<Write, Array<{ path: string; event: string }>> = {
  mint: [
    { path: "/v1", event: "cert.issued" },
    { path: "/v1", event: "product.certified" },
    { path: "/dashboard", event: "cert.issued" },
  ],
  tag: [{ path: "/dashboard", event: "tag.assigned" }],
  event: [],
};

type Outcome = {
  write: Write;
  depth: number;
  /** Moments the public record showed verified for a transaction not on the chain (or not in the block shown). */
  verifiedGone: string[];
  /** Deliveries made while their transaction was not on the chain or not yet at the depth. */
  premature: string[];
  onChain: number;
  deliveries: Record<string, number>;
  reorgsRecorded: Array<{ depth: number; deep: boolean }>;
  /** How many more deep reorganisations /readyz reports after the case than before. */
  deepReported: number;
  blocksToHeal: number;
  /** The transaction that holds the write in the end (the one sent, or its replacement). */
  finalTx?: string;
  notes: string[];
  problems: string[];
  /** Seconds from the case's start at which each phase ended: where a slow case spent its time. */
  phases: string[];
};

describe("chain reorganisations under a mint, a tag assignment and a supply-chain event", function () {
  this.timeout(600_000);
  let stack: Stack;
  let demo: DemoState;
  let chain: ChainControl;
  let receiver: WebhookReceiver;
  let dispatcher: Dispatcher;
  let operator: Record<string, string>;
  const outcomes: Outcome[] = [];
  const passportEvents = new Interface(ProductPassport__factory.abi);

  before(async function () {
    this.timeout(300_000);
    // No interval mining: every block of this file is mined by hand.
    stack = await startStack(await createTestDatabase("chain_reorg"), {
      pollingIntervalMs: 100,
      apiEnv: { CONFIRMATIONS: String(CONFIRMATIONS), CHAIN_MONITOR_INTERVAL_MS: "100" },
    });
    demo = await seedDemo({ db: stack.api.db, wallet: stack.wallet, contracts: stack.contracts, previous: undefined, demoApiKey: undefined, log: () => undefined });
    chain = new ChainControl(stack.chain.rpcUrl, stack.chain.chainId);
    // The seed's writes at the depth, so the indexer and /readyz are settled before the first case.
    for (let i = 0; i < CONFIRMATIONS; i += 1) await chain.mine();
    await waitForIndexer(stack);

    receiver = await startWebhookReceiver();
    const registered = await post("/api/v1/webhook/register", { url: `${receiver.url}/v1`, events: ["product.certified", "cert.issued"] }, v1Headers());
    expect(registered.status).to.equal(201);
    const brand = await getBrand(stack.api.db, demo.brand_slug);
    await setDashboardWebhook({ db: stack.api.db, config: stack.api.config }, brand.id, `${receiver.url}/dashboard`);
    dispatcher = new Dispatcher({ config: stack.api.config, db: stack.api.db, logger: createLogger("silent"), pollIntervalMs: 100, watchIntervalMs: 100 });
    dispatcher.start();
    const login = await json(await post("/api/login", { email: demo.operator.email, password: demo.operator.password }, { "Content-Type": "application/json" }));
    operator = { Authorization: `Bearer ${login.token}`, "Content-Type": "application/json" };
  });

  after(async function () {
    this.timeout(60_000);
    printTable();
    await dispatcher?.stop(2000);
    await receiver?.close();
    chain?.close();
    await stack?.stop();
  });

  const v1Headers = () => ({ Authorization: `Bearer ${demo.api_key}`, "X-Service-Brand": demo.brand_slug, "Content-Type": "application/json" });
  function post(path: string, body: unknown, headers: Record<string, string>) {
    return fetch(`${stack.api.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  }
  const pause = (ms = SETTLE_MS) => new Promise((resolve) => setTimeout(resolve, ms));
  const deliveriesOf = (uid: string) => receiver.received.filter((d) => d.payload.uid === uid);

  async function newProduct(): Promise<string> {
    const res = await post("/api/v1/products", { sku: `RG-${randomBytes(4).toString("hex")}`, name: "Reorg Tee", category: "t-shirt", price: 990, factory_id: FACTORY }, v1Headers());
    expect(res.status).to.equal(201);
    return (await json(res)).data.uid as string;
  }

  async function issue(uid: string): Promise<{ txHash: string; blockNumber: number }> {
    const res = await post("/api/v1/certs/issue", { uid }, v1Headers());
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(201);
    return { txHash: body.data.tx_hash as string, blockNumber: body.data.block_number as number };
  }

  /** The public record of `uid`; any other answer fails the test with its status and body. */
  async function publicRecord(uid: string) {
    const res = await fetch(`${stack.api.url}/api/dpp/${uid}`);
    const body = await json(res);
    expect(res.status, `GET /api/dpp/${uid}: ${JSON.stringify(body)}`).to.equal(200);
    return body;
  }

  async function mintSettled(uid: string): Promise<boolean> {
    const record = await publicRecord(uid);
    return Boolean(record.blockchain.verified) && EVENTS.mint.every((e) => deliveriesOf(uid).some((d) => d.path === e.path && d.payload.event === e.event));
  }

  /** Polls `done` without mining, for at most LATE_MS. */
  async function settledWithin(done: () => Promise<boolean>): Promise<boolean> {
    for (const until = Date.now() + LATE_MS; Date.now() < until; await pause()) if (await done()) return true;
    return done();
  }

  /** Mines blocks until the product's mint is verified on the public record and its events are out. */
  async function settledMint(uid: string): Promise<void> {
    for (let i = 0; i < HEAL_BLOCKS; i += 1) {
      await chain.mine();
      await pause();
      if (await mintSettled(uid)) return;
    }
    // Deep enough by now: what is left is work (indexing, the watcher, a delivery), which a busy machine does late.
    if (await settledWithin(() => mintSettled(uid))) return;
    throw new Error(`the mint of ${uid} did not settle in ${HEAL_BLOCKS} blocks and ${LATE_MS / 1000} s more`);
  }

  /** The write under test, sent while automine is on (mined at once in its own block). */
  async function doWrite(write: Write, uid: string): Promise<{ txHash: string; blockNumber: number; tagHash?: string; detailsHash?: string }> {
    if (write === "mint") return issue(uid);
    if (write === "tag") {
      const res = await post(`/api/factories/${FACTORY}/tags`, { uid, tag_uid: randomBytes(7).toString("hex").toUpperCase() }, operator);
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).to.equal(201);
      return { txHash: body.tx_hash, blockNumber: body.block_number, tagHash: body.tag_hash };
    }
    const res = await post(`/api/factories/${FACTORY}/events`, { uid, stage: 8, details: { inspector: "QC line 3", run: randomBytes(4).toString("hex") } }, operator);
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(201);
    return { txHash: body.tx_hash, blockNumber: body.block_number, detailsHash: body.details_hash };
  }

  /** The chain's logs of the write, for this token (one, when all is well). */
  async function occurrences(write: Write, tokenId: string, sent: { tagHash?: string; detailsHash?: string }): Promise<Log[]> {
    const tokenTopic = `0x${BigInt(tokenId).toString(16).padStart(64, "0")}`;
    // A mint is the token's Transfer from zero (token id in the fourth topic); the other writes index it first.
    const topics =
      write === "mint"
        ? [passportEvents.getEvent("Transfer")!.topicHash, ZeroHash, null, tokenTopic]
        : [passportEvents.getEvent(write === "tag" ? "TagAssigned" : "SupplyChainEventRecorded")!.topicHash, tokenTopic];
    const logs = await chain.provider.getLogs({ address: stack.deployment.contracts.ProductPassport.address, topics, fromBlock: 0 });
    return logs.filter((log) => {
      const parsed = passportEvents.parseLog(log)!;
      if (write === "tag") return String(parsed.args.tagHash).toLowerCase() === sent.tagHash!.toLowerCase();
      if (write === "event") return String(parsed.args.detailsHash).toLowerCase() === sent.detailsHash!.toLowerCase();
      return true;
    });
  }

  /** Deep reorganisations the readiness check reports (GET /readyz, checks.chain.deep_reorgs_last_day). */
  async function deepReorgsReported(): Promise<number> {
    const body = await json(await fetch(`${stack.api.url}/readyz`));
    return Number(body.checks?.chain?.deep_reorgs_last_day ?? 0);
  }

  /** Runs one case into `outcome` (the caller's, so what was noted survives a case that throws). */
  async function runCase(outcome: Outcome): Promise<void> {
    const { write, depth } = outcome;
    const started = Date.now();
    const phase = (name: string) => outcome.phases.push(`${name} ${((Date.now() - started) / 1000).toFixed(1)}`);
    /** Runs one step of the case; a step slower than SLOW_STEP_MS is noted with its name, to show where a slow case waited. */
    const step = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      const began = Date.now();
      try {
        return await run();
      } finally {
        if (Date.now() - began > SLOW_STEP_MS) outcome.notes.push(`${what} took ${Date.now() - began} ms`);
      }
    };
    const uid = await newProduct();
    const tokenId = tokenIdOf(uid);
    await chain.automine(true);
    if (write !== "mint") {
      await issue(uid);
      await chain.automine(false);
      await settledMint(uid);
      await chain.automine(true);
    }
    const checked = new Set<Delivery>();
    // For a reorg deeper than the depth, what was verified before it may show verified until the indexer has seen it:
    // that window is the deep reorg itself (reported, below), not a fault of the record.
    let deepWindow = false;
    const sample = async (moment: string) => {
      const record = await step(`the public record (${moment})`, () => publicRecord(uid));
      if (record.blockchain.verified && !deepWindow) {
        const receipt = await step(`a receipt (${moment})`, () => chain.receipt(record.blockchain.tx_hash));
        if (!receipt || receipt.blockNumber !== record.blockchain.block_number) outcome.verifiedGone.push(`${moment}: ${record.blockchain.tx_hash} at ${record.blockchain.block_number}`);
      }
      for (const delivery of deliveriesOf(uid)) {
        if (checked.has(delivery)) continue;
        checked.add(delivery);
        const hash = String(delivery.payload.tx_hash);
        const receipt = await chain.receipt(hash);
        const at = receipt ? await chain.depth(receipt.blockNumber) : 0;
        if (at < CONFIRMATIONS) outcome.premature.push(`${moment}: ${delivery.payload.event} for ${hash} at depth ${at}`);
      }
    };

    phase("set up");
    const snapshot = await chain.snapshot();
    const sent = await doWrite(write, uid);
    phase("written");
    await chain.automine(false);
    await pause();
    await sample("written");
    while ((await chain.depth(sent.blockNumber)) < depth) {
      await chain.mine();
      await pause();
      await sample(`old branch, depth ${await chain.depth(sent.blockNumber)}`);
    }
    if (depth >= CONFIRMATIONS) {
      // Deeper than the depth: the events went out before the chain changed its mind.
      await waitFor("the events at the depth", async () => (EVENTS[write].every((e) => deliveriesOf(uid).some((d) => d.path === e.path && d.payload.event === e.event)) ? true : undefined), 20_000, 100);
      await sample("at depth, events out");
      deepWindow = true;
    }

    phase("old branch");
    const deepBefore = await step("/readyz", deepReorgsReported);
    await step("evm_revert", () => chain.revert(snapshot));
    for (let i = 0; i <= depth; i += 1) {
      await step(`new branch block ${i + 1}`, () => chain.mineBranchBlock());
      await pause();
      await sample(`new branch, block ${i + 1}`);
    }

    // A write re-sent under a new nonce (superseded) has a new hash: the chain's log of it names the transaction.
    const currentTx = async () => {
      const logs = await occurrences(write, tokenId, sent);
      return logs.length === 1 ? logs[0]!.transactionHash : sent.txHash;
    };
    const healed = async () => {
      const txHash = await currentTx();
      const receipt = await chain.receipt(txHash);
      if (!receipt || (await chain.depth(receipt.blockNumber)) < CONFIRMATIONS) return false;
      outcome.finalTx = txHash;
      if (!EVENTS[write].every((e) => deliveriesOf(uid).some((d) => d.path === e.path && d.payload.event === e.event))) return false;
      const schema = stack.api.config.onchainSchema;
      const indexed = await findIndexedPassport(stack.api.db, schema, tokenId);
      if (!indexed) return false;
      if (write === "mint") {
        const row = await stack.api.db("app.passports").where({ token_id: tokenId }).first();
        return indexed.mintTxHash === txHash && indexed.mintedBlock === receipt.blockNumber && row?.status === "minted" && Number(row.block_number) === receipt.blockNumber;
      }
      if (write === "tag") {
        const rows = await stack.api.db.withSchema(schema).from("tag_assignment").where({ token_id: tokenId, tx_hash: txHash }).select("block_number");
        return rows.length === 1 && Number(rows[0].block_number) === receipt.blockNumber;
      }
      const events = await listSupplyChainEvents(stack.api.db, schema, tokenId);
      return events.some((e) => e.txHash === txHash && e.blockNumber === receipt.blockNumber);
    };
    phase("new branch");
    for (let i = 0; i < HEAL_BLOCKS && !(await healed()); i += 1) {
      await chain.mine();
      await pause();
      outcome.blocksToHeal += 1;
      // The indexer has followed the new branch once the mint it shows is where the chain has it (or not shown).
      if (deepWindow) {
        const record = await publicRecord(uid);
        const receipt = record.blockchain.tx_hash ? await chain.receipt(record.blockchain.tx_hash) : null;
        if (receipt && receipt.blockNumber === record.blockchain.block_number) deepWindow = false;
      }
      await sample(`healing, block ${i + 1}`);
    }
    // Past HEAL_BLOCKS the write is deep on the new branch; what is left is work a busy machine does late.
    if (!(await healed()) && !(await settledWithin(healed))) outcome.problems.push(`not healed after ${HEAL_BLOCKS} blocks and ${LATE_MS / 1000} s more`);
    phase("healed");
    // A few more blocks: a second delivery or a second send would show now.
    for (let i = 0; i < 3; i += 1) {
      await chain.mine();
      await pause();
      await sample("after healing");
    }

    // The final state.
    outcome.deepReported = (await deepReorgsReported()) - deepBefore;
    outcome.onChain = (await occurrences(write, tokenId, sent)).length;
    if (outcome.finalTx !== sent.txHash) outcome.notes.push(`re-sent under a new hash (${outcome.finalTx})`);
    const ledgerRows = await stack.api.db("app.chain_transactions").whereRaw("? = ANY(hashes) OR tx_hash = ?", [sent.txHash, sent.txHash]).select("status", "nonce");
    outcome.notes.push(`ledger: ${ledgerRows.map((row: { status: string; nonce: number }) => `nonce ${row.nonce} ${row.status}`).join(", ")}`);
    for (const e of [...EVENTS.mint, ...EVENTS[write]]) {
      const key = `${e.path} ${e.event}`;
      const matching = deliveriesOf(uid).filter((d) => d.path === e.path && d.payload.event === e.event);
      outcome.deliveries[key] = matching.length;
      if (matching.length > 1) outcome.notes.push(`${key} delivered for ${matching.map((d) => `${String(d.payload.tx_hash)} (${d.headers["webhook-id"] ?? "?"})`).join(" and ")}`);
    }
    const record = await publicRecord(uid);
    const shown = [record.blockchain.tx_hash, ...record.supply_chain_events.map((e: { tx_hash: string }) => e.tx_hash)];
    for (const hash of shown) if (!(await chain.receipt(hash))) outcome.problems.push(`the public record shows ${hash}, which the chain does not hold`);
    for (const event of record.supply_chain_events as Array<{ tx_hash: string; block_number: number }>) {
      const receipt = await chain.receipt(event.tx_hash);
      if (receipt && receipt.blockNumber !== event.block_number) outcome.problems.push(`step ${event.tx_hash} shown in block ${event.block_number}, on chain in ${receipt.blockNumber}`);
    }
    const passportRow = await stack.api.db("app.passports").where({ token_id: tokenId }).first();
    const mintReceipt = passportRow?.tx_hash ? await chain.receipt(passportRow.tx_hash) : null;
    if (passportRow?.status !== "minted" || !mintReceipt || mintReceipt.blockNumber !== Number(passportRow.block_number)) {
      outcome.problems.push(`app.passports says ${passportRow?.status} in block ${passportRow?.block_number}; the chain has its mint in ${mintReceipt?.blockNumber ?? "no block"}`);
    }
    outcome.reorgsRecorded = (
      await stack.api.db("app.chain_reorgs as r")
        .join("app.chain_transactions as t", "t.id", "r.chain_tx_id")
        .whereRaw("? = ANY(t.hashes) OR t.tx_hash = ?", [sent.txHash, sent.txHash])
        .select("r.depth", "r.deep")
        .catch((error: Error) => {
          outcome.problems.push(`no reorganisation record: ${error.message}`);
          return [];
        })
    ).map((r: { depth: number; deep: boolean }) => ({ depth: r.depth, deep: r.deep }));
    phase("checked");
  }

  /** Notes each lock wait in this file's database older than SLOW_STEP_MS, with what blocks it: why a step was slow. */
  async function noteLockWaits(outcome: Outcome): Promise<void> {
    const waits = await stack.api.db
      .raw(
        `SELECT left(a.query, 160) AS waiting, (SELECT string_agg(b.application_name || ' (' || b.state || '): ' || left(b.query, 160), '; ')
           FROM pg_stat_activity b WHERE b.pid = ANY (pg_blocking_pids(a.pid))) AS blocked_by
         FROM pg_stat_activity a
         WHERE a.datname = current_database() AND a.wait_event_type = 'Lock' AND now() - a.query_start > make_interval(secs => ?)`,
        [SLOW_STEP_MS / 1000],
      )
      .then((result: { rows: Array<{ waiting: string; blocked_by: string | null }> }) => result.rows)
      .catch(() => []);
    for (const wait of waits) {
      const note = `lock wait: ${wait.waiting.replace(/\s+/g, " ")} <- ${(wait.blocked_by ?? "?").replace(/\s+/g, " ")}`;
      if (!outcome.notes.includes(note)) outcome.notes.push(note);
    }
  }

  function printTable() {
    if (outcomes.length === 0) return;
    const lines = [
      `reorganisations (CONFIRMATIONS=${CONFIRMATIONS})`,
      "| write | depth | on chain | verified for a gone tx | premature deliveries | deliveries | reorg recorded | deep on /readyz | blocks to heal | notes | problems | phases (s from start) |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|",
      ...outcomes.map(
        (o) =>
          `| ${o.write} | ${o.depth} | ${o.onChain} | ${o.verifiedGone.length} | ${o.premature.length} | ${Object.entries(o.deliveries).map(([k, v]) => `${k}: ${v}`).join(", ")} | ${o.reorgsRecorded.map((r) => `${r.deep ? "deep" : "shallow"} ${r.depth}`).join(", ") || "none"} | ${o.deepReported} | ${o.blocksToHeal} | ${o.notes.join("; ")} | ${o.problems.join("; ")} | ${o.phases.join(", ")} |`,
      ),
    ];
    console.log(lines.map((line) => `      ${line}`).join("\n"));
  }

  for (const write of WRITES) {
    for (const depth of DEPTHS) {
      it(`${write}, reorganised ${depth} block${depth > 1 ? "s" : ""} deep (${depth > CONFIRMATIONS ? "deeper than" : "within"} the depth): healed once`, async () => {
        const outcome: Outcome = { write, depth, verifiedGone: [], premature: [], onChain: 0, deliveries: {}, reorgsRecorded: [], deepReported: 0, blocksToHeal: 0, notes: [], problems: [], phases: [] };
        outcomes.push(outcome);
        const lockWatch = setInterval(() => void noteLockWaits(outcome), 1000);
        try {
          await runCase(outcome);
        } finally {
          clearInterval(lockWatch);
        }
        const detail = JSON.stringify(outcome, null, 1);
        expect(outcome.problems, detail).to.deep.equal([]);
        expect(outcome.verifiedGone, detail).to.deep.equal([]);
        expect(outcome.premature, detail).to.deep.equal([]);
        expect(outcome.onChain, detail).to.equal(1);
        for (const [key, count] of Object.entries(outcome.deliveries)) expect(count, `${key}\n${detail}`).to.equal(1);
        expect(outcome.reorgsRecorded.length, detail).to.be.at.least(1);
        expect(outcome.reorgsRecorded.every((r) => r.deep === depth > CONFIRMATIONS), detail).to.equal(true);
        expect(outcome.deepReported > 0, detail).to.equal(depth > CONFIRMATIONS);
      });
    }
  }
});
