// Gas benchmark: ProductPassport minting against a stock OpenZeppelin ERC-721, and the gas of every state-changing
// call of both contracts compared with the committed `.gas-snapshot` (rewritten with UPDATE_GAS_SNAPSHOT=1).
//
// Run with `npm run bench:gas` (in-process Hardhat network). Prints figures and never fails: a missed target is
// printed loudly instead, so that CI shows it without blocking on a benchmark.
//
// Where the batch figure bottoms out: each passport needs its one fresh slot (22,100 gas), its Transfer log (1,875)
// and its 64 bytes of calldata (~1,000), about 25,000 of the ~25,450 a passport adds to a batch; the rest is the
// loop and its checks. The call's one PassportsMinted log and the transaction's 21,000 are shared by the batch, so
// the figure per passport falls toward that floor as the batch grows (~26,100 in 50, ~25,600 in 200: a ratio of
// ~0.50 against a warm OpenZeppelin mint).
//
// Model and batch passports are ERC-721 tokens like items, anchored by the same `mint`, `mintBatch` and
// `updateDataHash`; their lines are printed on their own, next to the cheapest alternative, a bare event
// (contracts/test/EventAnchorProbe.sol), so the difference the choice costs is in every run's output.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ethers } from "hardhat";
import type { ContractTransactionResponse } from "ethers";

const SNAPSHOT_PATH = path.join(__dirname, "..", "..", ".gas-snapshot");
const BATCH_SIZE = 50;
const TARGETS = { mint: 1.35, batch: 0.6 };

/** Deterministic inputs: the snapshot must not move because random calldata has a different number of zero bytes. */
const id = (label: string): bigint => BigInt(ethers.id(`bench:${label}`));
const hash = (label: string): string => ethers.id(`bench-hash:${label}`);

async function gasOf(tx: Promise<ContractTransactionResponse>): Promise<bigint> {
  const receipt = await (await tx).wait();
  if (!receipt) throw new Error("no receipt");
  return receipt.gasUsed;
}

function readSnapshot(): Map<string, bigint> {
  const snapshot = new Map<string, bigint>();
  if (!existsSync(SNAPSHOT_PATH)) return snapshot;
  for (const line of readFileSync(SNAPSHOT_PATH, "utf8").split("\n")) {
    const match = /^(\S+) (\d+)$/.exec(line.trim());
    if (match) snapshot.set(match[1], BigInt(match[2]));
  }
  return snapshot;
}

/** "(new)", "(=)" or "(+123, +0.45%)" against the snapshot. */
function delta(before: bigint | undefined, now: bigint): string {
  if (before === undefined) return "(new)";
  const diff = now - before;
  if (diff === 0n) return "(=)";
  const sign = diff > 0n ? "+" : "";
  return `(${sign}${diff}, ${sign}${((Number(diff) / Number(before)) * 100).toFixed(2)}%)`;
}

async function main(): Promise<void> {
  const [wallet, admin, other] = await ethers.getSigners();
  const passport = await ethers.deployContract("ProductPassport", [admin.address, 0, wallet.address, "https://x/"]);
  const registry = await ethers.deployContract("FactoryRegistry", [admin.address, 0, wallet.address, wallet.address]);
  const plain = await ethers.deployContract("PlainERC721");
  const probe = await ethers.deployContract("EventAnchorProbe");
  const custodian = wallet.address;
  const factoryId = 1n;

  // Warm-up: both recipients already hold a token, so neither mint below pays for a balance slot going 0 -> 1.
  await gasOf(passport.mint(custodian, id("warm"), factoryId, hash("warm")));
  await gasOf(plain.mint(custodian, id("warm")));

  const gas = new Map<string, bigint>();
  gas.set("PlainERC721.mint", await gasOf(plain.mint(custodian, id("single"))));
  gas.set("ProductPassport.mint", await gasOf(passport.mint(custodian, id("single"), factoryId, hash("single"))));
  const batchIds = Array.from({ length: BATCH_SIZE }, (_, i) => id(`batch-${i}`));
  const batchHashes = Array.from({ length: BATCH_SIZE }, (_, i) => hash(`batch-${i}`));
  gas.set("ProductPassport.mintBatch", await gasOf(passport.mintBatch(custodian, factoryId, batchIds, batchHashes)));

  const tokenId = id("single");
  gas.set("ProductPassport.updateDataHash", await gasOf(passport.updateDataHash(tokenId, hash("single-v2"))));
  gas.set("ProductPassport.assignTag", await gasOf(passport.assignTag(tokenId, hash("tag"))));
  gas.set(
    "ProductPassport.recordSupplyChainEvent",
    await gasOf(passport.recordSupplyChainEvent(tokenId, factoryId, 6, hash("sewn"))),
  );
  const newBase = "https://example.org/api/nft/";
  gas.set("ProductPassport.setBaseURI", await gasOf(passport.connect(admin).setBaseURI(newBase)));
  gas.set("ProductPassport.transferFrom", await gasOf(passport.transferFrom(custodian, other.address, tokenId)));
  // Status last: a Lost passport could no longer be transferred above.
  gas.set("ProductPassport.setStatus", await gasOf(passport.setStatus(tokenId, 1)));

  const portugal = "0x5054"; // "PT"
  gas.set(
    "FactoryRegistry.registerFactory",
    await gasOf(registry.registerFactory(factoryId, hash("profile"), portugal)),
  );
  gas.set(
    "FactoryRegistry.updateFactoryMetadata",
    await gasOf(registry.updateFactoryMetadata(factoryId, hash("profile-v2"))),
  );
  gas.set("FactoryRegistry.verifyFactory", await gasOf(registry.verifyFactory(factoryId)));
  gas.set("FactoryRegistry.unverifyFactory", await gasOf(registry.unverifyFactory(factoryId)));
  gas.set("FactoryRegistry.setCertifications", await gasOf(registry.setCertifications(factoryId, 0b101)));

  // Model and batch passports: the calls the pump makes for them, with ids and hashes of their own.
  const modelId = id("model");
  gas.set("ProductPassport.mint(modelPassport)", await gasOf(passport.mint(custodian, modelId, factoryId, hash("model"))));
  gas.set("ProductPassport.mint(batchPassport)", await gasOf(passport.mint(custodian, id("lot"), factoryId, hash("lot"))));
  gas.set("ProductPassport.updateDataHash(modelPassport)", await gasOf(passport.updateDataHash(modelId, hash("model-v2"))));
  // The event-only alternative, alone, in a batch of the same size, and for a new version (another event).
  const eventId = (label: string) => ethers.toBeHex(id(label), 32);
  gas.set("EventAnchorProbe.anchor", await gasOf(probe.anchor(eventId("model"), hash("model"))));
  gas.set(
    "EventAnchorProbe.anchorBatch",
    await gasOf(probe.anchorBatch(batchIds.map((tokenId) => ethers.toBeHex(tokenId, 32)), batchHashes)),
  );
  gas.set("EventAnchorProbe.anchor(newVersion)", await gasOf(probe.anchor(eventId("model"), hash("model-v2"))));

  // Ratios: the benchmark's purpose. Both sides mint to the same warmed-up address in a transaction of their own.
  const ozMint = Number(gas.get("PlainERC721.mint"));
  const mintRatio = Number(gas.get("ProductPassport.mint")) / ozMint;
  const batchPerPassport = Number(gas.get("ProductPassport.mintBatch")) / BATCH_SIZE;
  const batchRatio = batchPerPassport / ozMint;
  console.log(`OpenZeppelin ERC721 _safeMint: ${ozMint} gas`);
  console.log(`ProductPassport.mint: ${gas.get("ProductPassport.mint")} gas`);
  console.log(`ProductPassport.mintBatch(${BATCH_SIZE}): ${gas.get("ProductPassport.mintBatch")} gas`);
  console.log(`  = ${batchPerPassport.toFixed(0)} gas per passport`);
  console.log(`mint gas ratio: ${mintRatio.toFixed(3)}`);
  console.log(`batch mint gas ratio: ${batchRatio.toFixed(3)}`);
  const missed: string[] = [];
  if (mintRatio > TARGETS.mint) missed.push(`mint ratio ${mintRatio.toFixed(3)} > ${TARGETS.mint}`);
  if (batchRatio > TARGETS.batch) missed.push(`batch mint ratio ${batchRatio.toFixed(3)} > ${TARGETS.batch}`);
  if (missed.length === 0) {
    console.log(`targets met (mint <= ${TARGETS.mint}, batch <= ${TARGETS.batch})`);
  } else {
    console.log(`\n!!!!!!!! TARGET MISSED: ${missed.join("; ")} !!!!!!!!\n`);
  }

  // Model and batch anchors against an event-only anchor: what the choice of an ERC-721 token costs.
  const anchors: Array<[string, number, number]> = [
    ["model passport anchor (mint, alone)", Number(gas.get("ProductPassport.mint(modelPassport)")), Number(gas.get("EventAnchorProbe.anchor"))],
    ["batch passport anchor (mint, alone)", Number(gas.get("ProductPassport.mint(batchPassport)")), Number(gas.get("EventAnchorProbe.anchor"))],
    [
      `model/batch passport anchor (in a batch of ${BATCH_SIZE}, per passport)`,
      batchPerPassport,
      Number(gas.get("EventAnchorProbe.anchorBatch")) / BATCH_SIZE,
    ],
    ["re-anchor a version (updateDataHash)", Number(gas.get("ProductPassport.updateDataHash(modelPassport)")), Number(gas.get("EventAnchorProbe.anchor(newVersion)"))],
  ];
  const labelWidth = Math.max(...anchors.map(([label]) => label.length));
  console.log(`\nmodel and batch passports (ERC-721 tokens) against an event-only anchor (EventAnchorProbe):`);
  console.log(`  ${"".padEnd(labelWidth)} ${"token".padStart(7)} ${"event".padStart(7)} ${"saved".padStart(7)}`);
  for (const [label, token, event] of anchors) {
    const saved = token - event;
    console.log(
      `  ${label.padEnd(labelWidth)} ${token.toFixed(0).padStart(7)} ${event.toFixed(0).padStart(7)} ${saved.toFixed(0).padStart(7)} (${((saved / token) * 100).toFixed(0)}%)`,
    );
  }

  // Snapshot comparison.
  const previous = readSnapshot();
  console.log(`\ngas per call (mintBatch = ${BATCH_SIZE} passports), against ${path.basename(SNAPSHOT_PATH)}:`);
  const width = Math.max(...[...gas.keys()].map((key) => key.length));
  for (const [key, value] of gas) {
    console.log(`  ${key.padEnd(width)} ${value.toString().padStart(9)} ${delta(previous.get(key), value)}`);
  }
  for (const key of previous.keys()) if (!gas.has(key)) console.log(`  ${key.padEnd(width)} (removed)`);

  if (process.env.UPDATE_GAS_SNAPSHOT === "1" || !existsSync(SNAPSHOT_PATH)) {
    const lines = [...gas.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k} ${v}`);
    writeFileSync(SNAPSHOT_PATH, `${lines.join("\n")}\n`);
    console.log(`\nwrote ${SNAPSHOT_PATH}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
