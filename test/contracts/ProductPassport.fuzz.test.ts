// Randomized properties of ProductPassport (fast-check), with bounded runs so the suite stays fast.
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import fc from "fast-check";
import { tokenIdOf } from "./helpers";

const FACTORY_ID = 3n;
const MAX_BATCH = 200;

/** A non-zero 32-byte value as a 0x-hex string. */
const nonZeroBytes32 = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .filter((bytes) => bytes.some((b) => b !== 0))
  .map((bytes) => ethers.hexlify(bytes));
/** A token id as the service derives it, or any other non-zero uint256. */
const tokenId = fc.bigInt({ min: 1n, max: ethers.MaxUint256 });

describe("ProductPassport (randomized)", function () {
  async function deployFixture() {
    const [wallet, admin, alice, bob, carol] = await ethers.getSigners();
    const passport = await ethers.deployContract("ProductPassport", [admin.address, 0, wallet.address, ""]);
    return { passport, wallet, holders: [wallet, alice, bob, carol] };
  }

  it("derives tokenIdOf(uid) as keccak256 of the UTF-8 bytes, for any UID", async function () {
    const { passport } = await loadFixture(deployFixture);
    const uid = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 64 }),
      fc.stringMatching(/^[A-Z]{2,8}-[0-9A-HJKMNP-TV-Z]{8,16}$/),
    );
    await fc.assert(
      fc.asyncProperty(uid, async (value) => {
        expect(await passport.tokenIdOf(value)).to.equal(tokenIdOf(value));
      }),
      { numRuns: 150 },
    );
  });

  it("mints a batch of any size 1..MAX_BATCH with any hashes, and stores each hash", async function () {
    const batch = fc
      .integer({ min: 1, max: MAX_BATCH })
      .chain((size) =>
        fc.tuple(
          fc.uniqueArray(tokenId, { minLength: size, maxLength: size }),
          fc.array(nonZeroBytes32, { minLength: size, maxLength: size }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(batch, async ([ids, hashes]) => {
        const { passport, wallet } = await loadFixture(deployFixture);
        await passport.mintBatch(wallet.address, FACTORY_ID, ids, hashes);
        expect(await passport.balanceOf(wallet.address)).to.equal(BigInt(ids.length));
        // Spot-check first, last and one in the middle: every id is checked by the balance and the next property.
        for (const i of new Set([0, ids.length >> 1, ids.length - 1])) {
          expect(await passport.dataHashOf(ids[i])).to.equal(hashes[i]);
          expect(await passport.ownerOf(ids[i])).to.equal(wallet.address);
        }
      }),
      { numRuns: 20 },
    );
  });

  it("reverts a batch with a duplicate anywhere, and mints nothing", async function () {
    const batchWithDuplicate = fc
      .uniqueArray(tokenId, { minLength: 1, maxLength: 40 })
      .chain((ids) =>
        fc.tuple(
          fc.constant(ids),
          fc.integer({ min: 0, max: ids.length - 1 }), // which id is repeated
          fc.integer({ min: 0, max: ids.length }), // where the copy goes
          fc.boolean(), // whether the id was minted before instead of repeated in the batch
        ),
      );
    await fc.assert(
      fc.asyncProperty(batchWithDuplicate, async ([ids, which, where, mintedBefore]) => {
        const { passport, wallet } = await loadFixture(deployFixture);
        const duplicate = ids[which];
        let batch = ids;
        if (mintedBefore) {
          await passport.mint(wallet.address, duplicate, FACTORY_ID, ethers.id("earlier"));
        } else {
          batch = [...ids.slice(0, where), duplicate, ...ids.slice(where)];
        }
        const hashes = batch.map((id) => ethers.id(`hash ${id}`));
        await expect(passport.mintBatch(wallet.address, FACTORY_ID, batch, hashes))
          .to.be.revertedWithCustomError(passport, "PassportAlreadyMinted")
          .withArgs(duplicate);
        expect(await passport.balanceOf(wallet.address)).to.equal(mintedBefore ? 1n : 0n);
      }),
      { numRuns: 40 },
    );
  });

  it("keeps ownerOf and balanceOf consistent through any mix of mints, batches and transfers", async function () {
    // Operations reference holders and earlier-minted passports by index, so every generated step is meaningful.
    const operation = fc.oneof(
      fc.record({ kind: fc.constant("mint" as const), to: fc.nat(3) }),
      fc.record({ kind: fc.constant("batch" as const), to: fc.nat(3), size: fc.integer({ min: 1, max: 8 }) }),
      fc.record({ kind: fc.constant("transfer" as const), token: fc.nat(), to: fc.nat(3) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (operations) => {
        const { passport, holders } = await loadFixture(deployFixture);
        const owners = new Map<bigint, number>(); // token id -> holder index: the model
        let serial = 0;
        const nextId = () => tokenIdOf(`FUZZ-${serial++}`);

        for (const op of operations) {
          if (op.kind === "mint") {
            const id = nextId();
            await passport.mint(holders[op.to].address, id, FACTORY_ID, ethers.id(`h${id}`));
            owners.set(id, op.to);
          } else if (op.kind === "batch") {
            const ids = Array.from({ length: op.size }, nextId);
            const hashes = ids.map((id) => ethers.id(`h${id}`));
            await passport.mintBatch(holders[op.to].address, FACTORY_ID, ids, hashes);
            for (const id of ids) owners.set(id, op.to);
          } else if (owners.size > 0) {
            const id = [...owners.keys()][op.token % owners.size];
            const from = holders[owners.get(id)!];
            await passport.connect(from).transferFrom(from.address, holders[op.to].address, id);
            owners.set(id, op.to);
          }
        }

        for (const [id, holder] of owners) expect(await passport.ownerOf(id)).to.equal(holders[holder].address);
        for (let h = 0; h < holders.length; h++) {
          const expected = [...owners.values()].filter((holder) => holder === h).length;
          expect(await passport.balanceOf(holders[h].address)).to.equal(BigInt(expected));
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("ProductPassport against OpenZeppelin's stock ERC721 (differential, randomized)", function () {
  // The ownership overrides must keep every ERC-721 rule: the same calls must succeed or fail with the same IERC6093
  // error on both contracts, and leave the same owners, balances and approvals.
  async function deployBothFixture() {
    const [wallet, admin, alice, bob, carol] = await ethers.getSigners();
    const passport = await ethers.deployContract("ProductPassport", [admin.address, 0, wallet.address, ""]);
    const plain = await ethers.deployContract("PlainERC721");
    return { passport, plain, accounts: [wallet, alice, bob, carol] };
  }

  /** Revert data of a call, or "ok". */
  async function outcome(call: () => Promise<unknown>): Promise<string> {
    try {
      await call();
      return "ok";
    } catch (error) {
      const data = (error as { data?: string }).data;
      if (typeof data !== "string") throw error;
      return data;
    }
  }

  it("accepts and rejects the same transfers and approvals, with the same errors", async function () {
    const account = fc.nat(3);
    // OWNER (the token's current owner) is common, so that authorized calls are frequent, not one in sixteen.
    const OWNER = -1;
    const actor = fc.oneof(fc.constant(OWNER), account);
    const receiver = fc.option(account, { freq: 8 }); // null: the zero address
    const token = fc.nat(4); // tokens 0..3 are minted at the start, token 4 never is
    const operation = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constantFrom("transferFrom" as const, "safeTransferFrom" as const, "approve" as const),
          caller: actor,
          from: actor,
          to: receiver,
          token,
        }),
      },
      {
        weight: 1,
        // setApprovalForAll: `to` is the operator; the approval flag is drawn once per run.
        arbitrary: fc.record({
          kind: fc.constant("approveAll" as const),
          caller: account,
          from: account,
          to: receiver,
          token,
        }),
      },
    );
    const initialHolders = fc.array(account, { minLength: 4, maxLength: 4 });
    const operations = fc.array(operation, { minLength: 10, maxLength: 30 });

    await fc.assert(
      fc.asyncProperty(initialHolders, operations, fc.boolean(), async (holders, steps, flag) => {
        const { passport, plain, accounts } = await loadFixture(deployBothFixture);
        const ids = [0, 1, 2, 3, 4].map((i) => tokenIdOf(`DIFF-${i}`));
        const address = (index: number | null) => (index === null ? ethers.ZeroAddress : accounts[index].address);
        for (const [i, holder] of holders.entries()) {
          await passport.mint(address(holder), ids[i], FACTORY_ID, ethers.id(`h${i}`));
          await plain.mint(address(holder), ids[i]);
        }
        const minted = ids.slice(0, holders.length);

        for (const { kind, token: t, ...op } of steps) {
          const id = ids[t];
          const ownerAddress = minted.includes(id) ? await plain.ownerOf(id) : accounts[0].address;
          const owner = accounts.findIndex((a) => a.address === ownerAddress);
          const caller = op.caller === OWNER ? owner : op.caller;
          const from = address(op.from === OWNER ? owner : op.from);
          const to = address(op.to);
          const call = (contract: typeof passport | typeof plain, send: boolean) => {
            const as = contract.connect(accounts[caller]);
            const safeTransferFrom = as["safeTransferFrom(address,address,uint256)"];
            switch (kind) {
              case "approve":
                return send ? as.approve(to, id) : as.approve.staticCall(to, id);
              case "approveAll":
                return send ? as.setApprovalForAll(to, flag) : as.setApprovalForAll.staticCall(to, flag);
              case "transferFrom":
                return send ? as.transferFrom(from, to, id) : as.transferFrom.staticCall(from, to, id);
              case "safeTransferFrom":
                return send ? safeTransferFrom(from, to, id) : safeTransferFrom.staticCall(from, to, id);
            }
          };

          const ours = await outcome(() => call(passport, false));
          const theirs = await outcome(() => call(plain, false));
          expect(ours, `${kind} ${JSON.stringify({ caller, from, to, t })}`).to.equal(theirs);
          if (ours === "ok") {
            await call(passport, true);
            await call(plain, true);
            if (minted.includes(id)) {
              expect(await passport.ownerOf(id)).to.equal(await plain.ownerOf(id));
              expect(await passport.getApproved(id)).to.equal(await plain.getApproved(id));
            }
          }
        }

        for (const id of minted) {
          expect(await passport.ownerOf(id)).to.equal(await plain.ownerOf(id));
          expect(await passport.getApproved(id)).to.equal(await plain.getApproved(id));
        }
        for (const holder of accounts) {
          expect(await passport.balanceOf(holder.address)).to.equal(await plain.balanceOf(holder.address));
          for (const operator of accounts) {
            expect(await passport.isApprovedForAll(holder.address, operator.address)).to.equal(
              await plain.isApprovedForAll(holder.address, operator.address),
            );
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});
