// The code lists generated from the contracts' NatSpec (api/src/generated/contract-constants.ts) against what the
// deployed contracts accept, so a list that lost or gained an entry fails here instead of on chain.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import {
  CERTIFICATION_CODES,
  CERTIFICATION_COUNT,
  MAX_STAGE,
  SUPPLY_CHAIN_STAGES,
  SUPPLY_CHAIN_STAGE_NAMES,
} from "../../api/src/generated/contract-constants";
import { hashOf, tokenIdOf } from "./helpers";

const FACTORY_ID = 7n;
const TOKEN_ID = tokenIdOf("ACME-CONSTANTS1");

describe("generated contract constants", function () {
  async function deployFixture() {
    const [wallet, admin] = await ethers.getSigners();
    const registry = await ethers.deployContract("FactoryRegistry", [admin.address, 0, wallet.address, wallet.address]);
    const passport = await ethers.deployContract("ProductPassport", [admin.address, 0, wallet.address, "https://x/"]);
    await registry.registerFactory(FACTORY_ID, hashOf("profile"), "0x5054");
    await passport.mint(wallet.address, TOKEN_ID, FACTORY_ID, hashOf("content"));
    return { registry, passport };
  }

  describe("certifications", function () {
    it("has one code per bit the deployed registry counts", async function () {
      const { registry } = await loadFixture(deployFixture);
      expect(await registry.CERTIFICATION_COUNT()).to.equal(BigInt(CERTIFICATION_COUNT));
      expect(CERTIFICATION_CODES).to.have.length(CERTIFICATION_COUNT);
      expect(new Set(CERTIFICATION_CODES).size).to.equal(CERTIFICATION_CODES.length);
    });

    it("names every bit the registry accepts, and the registry refuses the next one", async function () {
      const { registry } = await loadFixture(deployFixture);
      const allCodes = CERTIFICATION_CODES.reduce((mask, _code, bit) => mask | (1 << bit), 0);
      await registry.setCertifications(FACTORY_ID, allCodes);
      expect(await registry.certificationsOf(FACTORY_ID)).to.equal(BigInt(allCodes));

      const nextBit = 1 << CERTIFICATION_CODES.length;
      await expect(registry.setCertifications(FACTORY_ID, nextBit))
        .to.be.revertedWithCustomError(registry, "UnknownCertifications")
        .withArgs(nextBit);
    });
  });

  describe("supply-chain stages", function () {
    it("runs from 1 to the deployed passport contract's MAX_STAGE", async function () {
      const { passport } = await loadFixture(deployFixture);
      expect(await passport.MAX_STAGE()).to.equal(BigInt(MAX_STAGE));
      expect(SUPPLY_CHAIN_STAGES.map((stage) => stage.code)).to.deep.equal(
        Array.from({ length: MAX_STAGE }, (_, i) => i + 1),
      );
      expect(new Set(SUPPLY_CHAIN_STAGES.map((stage) => stage.name)).size).to.equal(MAX_STAGE);
      for (const { code, name } of SUPPLY_CHAIN_STAGES) expect(SUPPLY_CHAIN_STAGE_NAMES[code]).to.equal(name);
    });

    it("names the last stage the contract records, and the contract refuses the next one", async function () {
      const { passport } = await loadFixture(deployFixture);
      const last = SUPPLY_CHAIN_STAGES[SUPPLY_CHAIN_STAGES.length - 1].code;
      await expect(passport.recordSupplyChainEvent(TOKEN_ID, FACTORY_ID, last, hashOf("details")))
        .to.emit(passport, "SupplyChainEventRecorded")
        .withArgs(TOKEN_ID, FACTORY_ID, last, hashOf("details"));
      await expect(passport.recordSupplyChainEvent(TOKEN_ID, FACTORY_ID, last + 1, hashOf("details")))
        .to.be.revertedWithCustomError(passport, "InvalidStage")
        .withArgs(last + 1);
    });
  });

  it("are the lists docs/contracts.md shows", function () {
    const docs = readFileSync(path.join(__dirname, "..", "..", "docs", "contracts.md"), "utf8");
    expect(docs).to.include(`\`${SUPPLY_CHAIN_STAGES.map(({ code, name }) => `${code} ${name}`).join(", ")}\``);
    expect(docs).to.include(`\`${CERTIFICATION_CODES.map((code, bit) => `${bit} ${code}`).join(", ")}\``);
  });
});
