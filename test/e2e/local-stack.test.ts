// End to end on real parts: deploy on a Hardhat node → mint → Ponder indexes → readable through the API's data layer.
import { expect } from "chai";
import { json } from "../support/http";
import { readFileSync } from "node:fs";
import { dataHashOf, tokenIdOf } from "../../api/src/passports/content";
import { findIndexedPassport, listSupplyChainEvents } from "../../api/src/onchain/passports.repo";
import { waitFor } from "../../scripts/lib/processes";
import { createTestDatabase } from "../support/hooks";
import { startStack, type Stack } from "../../scripts/lib/stack";
import { waitForIndexer } from "../support/shared-stack";

describe("local stack end to end", function () {
  let stack: Stack;

  before(async function () {
    this.timeout(240_000);
    stack = await startStack(await createTestDatabase("e2e"), { blockIntervalMs: 500 });
    // Ponder builds and starts after the process is spawned: wait for it here, so the tests' bounds measure indexing.
    await waitForIndexer(stack);
  });
  after(async function () {
    this.timeout(60_000);
    await stack?.stop();
  });

  const waitForIndexed = (tokenId: string, accept: (p: NonNullable<Awaited<ReturnType<typeof findIndexedPassport>>>) => boolean) =>
    waitFor(
      `passport ${tokenId} in the views`,
      async () => {
        const row = await findIndexedPassport(stack.api.db, stack.api.config.onchainSchema, tokenId).catch(() => undefined);
        return row && accept(row) ? row : undefined;
      },
      90_000,
      100,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nindexer log tail:\n${readFileSync(stack.indexer.logFile, "utf8").split("\n").slice(-15).join("\n")}`);
    });

  it("indexes a minted passport with the anchored hash, transaction and holder", async () => {
    const uid = "E2E-7K3M9Q2X";
    const tokenId = tokenIdOf(uid);
    const dataHash = dataHashOf({ uid, note: "end-to-end" });
    const tx = await stack.wallet.send(() => stack.contracts.passport.mint(stack.wallet.address, tokenId, 1001, dataHash));
    const receipt = await tx.wait();

    const row = await waitForIndexed(tokenId, () => true);
    expect(row.tokenId).to.equal(tokenId);
    expect(row.factoryId).to.equal(1001);
    expect(row.dataHash).to.equal(dataHash);
    expect(row.mintTxHash).to.equal(tx.hash);
    expect(row.mintedBlock).to.equal(receipt!.blockNumber);
    expect(row.owner?.toLowerCase()).to.equal(stack.wallet.address.toLowerCase());
    expect(row.status).to.equal(0);
  });

  it("follows later events: supply-chain steps, re-anchoring and status", async () => {
    const uid = "E2E-4VH8N1TR";
    const tokenId = tokenIdOf(uid);
    const first = dataHashOf({ uid, version: 1 });
    const second = dataHashOf({ uid, version: 2 });
    const { passport } = stack.contracts;
    const sent = [
      await stack.wallet.send(() => passport.mint(stack.wallet.address, tokenId, 1002, first)),
      await stack.wallet.send(() => passport.recordSupplyChainEvent(tokenId, 1002, 6, dataHashOf({ step: "sewn" }))),
      await stack.wallet.send(() => passport.updateDataHash(tokenId, second)),
      await stack.wallet.send(() => passport.setStatus(tokenId, 1)),
    ];
    // Sent back to back through the nonce queue: consecutive nonces, all mined.
    expect(sent.map((tx) => tx.nonce)).to.deep.equal([0, 1, 2, 3].map((i) => sent[0]!.nonce + i));
    await Promise.all(sent.map((tx) => tx.wait()));

    const row = await waitForIndexed(tokenId, (p) => p.dataHashVersion === 2 && p.status === 1);
    expect(row.dataHash).to.equal(second);
    const events = await listSupplyChainEvents(stack.api.db, stack.api.config.onchainSchema, tokenId);
    expect(events).to.have.length(1);
    expect(events[0]).to.include({ factoryId: 1002, stage: 6, txHash: sent[1]!.hash });
  });

  it("reports ready once the indexer has caught up with the chain head", async () => {
    const body = await waitFor(
      "GET /readyz 200",
      async () => {
        const res = await fetch(`${stack.api.url}/readyz`);
        return res.status === 200 ? json(res) : undefined;
      },
      60_000,
      200,
    );
    expect(body.checks.indexer.ok).to.equal(true);
    expect(body.checks.indexer.lag_blocks).to.be.at.most(stack.api.config.indexerMaxLagBlocks);
  });
});
