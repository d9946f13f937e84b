// Shared constants and behaviours of the contract tests (no tests of its own).
import { expect } from "chai";
import { ethers } from "hardhat";
import { time } from "@nomicfoundation/hardhat-network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { BaseContract, ContractTransactionResponse } from "ethers";

export const DEFAULT_ADMIN_ROLE = ethers.ZeroHash;
export const ADMIN_DELAY = 3n * 24n * 60n * 60n; // three days, so that the delay is observable

/** ERC-165 interface id: XOR of the selectors of the functions an interface itself declares. */
export function interfaceId(signatures: string[]): string {
  let id = 0;
  for (const signature of signatures) id ^= Number.parseInt(ethers.id(signature).slice(2, 10), 16);
  return ethers.toBeHex(id >>> 0, 4);
}

export const INTERFACE_IDS = {
  ERC165: "0x01ffc9a7",
  ERC721: "0x80ac58cd",
  ERC721Metadata: "0x5b5e139f",
  ERC4906: "0x49064906",
  AccessControl: "0x7965db0b",
  AccessControlDefaultAdminRules: "0x31498786",
};

/** A keccak256 hash for a label: deterministic, non-zero test data. */
export const hashOf = (label: string): string => ethers.id(label);
/** The token id of a product UID, computed as the service does off chain. */
export const tokenIdOf = (uid: string): bigint => BigInt(ethers.keccak256(ethers.toUtf8Bytes(uid)));

/** The names of the events a transaction emitted from `contract`, in log order. */
export async function eventNames(contract: BaseContract, tx: Promise<ContractTransactionResponse>): Promise<string[]> {
  const receipt = await (await tx).wait();
  const address = (await contract.getAddress()).toLowerCase();
  return receipt!.logs
    .filter((log) => log.address.toLowerCase() === address)
    .map((log) => contract.interface.parseLog(log)?.name ?? "unknown");
}

/** What both contracts share from OpenZeppelin's AccessControlDefaultAdminRules. */
interface AdminRulesContract extends BaseContract {
  defaultAdmin(): Promise<string>;
  defaultAdminDelay(): Promise<bigint>;
  pendingDefaultAdmin(): Promise<[string, bigint] & { newAdmin: string; schedule: bigint }>;
  hasRole(role: string, account: string): Promise<boolean>;
  beginDefaultAdminTransfer(newAdmin: string): Promise<ContractTransactionResponse>;
  acceptDefaultAdminTransfer(): Promise<ContractTransactionResponse>;
  cancelDefaultAdminTransfer(): Promise<ContractTransactionResponse>;
  grantRole(role: string, account: string): Promise<ContractTransactionResponse>;
  revokeRole(role: string, account: string): Promise<ContractTransactionResponse>;
  connect(runner: HardhatEthersSigner): this;
}

export interface AdminRulesFixture {
  contract: AdminRulesContract;
  admin: HardhatEthersSigner;
  newAdmin: HardhatEthersSigner;
  stranger: HardhatEthersSigner;
  /** A role of the contract other than the admin role, and a check that exercises it. */
  role: string;
  useRole: (as: HardhatEthersSigner) => Promise<ContractTransactionResponse>;
  /** A call only the default admin may make (used to show who is admin after a transfer). */
  useAdmin: (as: HardhatEthersSigner) => Promise<ContractTransactionResponse>;
}

/** Role management and the two-step, delayed transfer of the default admin role. */
export function shouldBehaveLikeDefaultAdminRules(load: () => Promise<AdminRulesFixture>): void {
  describe("role management", function () {
    it("lets the admin grant and revoke a role", async function () {
      const { contract, admin, stranger, role, useRole } = await load();
      await expect(contract.connect(admin).grantRole(role, stranger.address))
        .to.emit(contract, "RoleGranted")
        .withArgs(role, stranger.address, admin.address);
      await expect(useRole(stranger)).not.to.be.reverted;

      await expect(contract.connect(admin).revokeRole(role, stranger.address))
        .to.emit(contract, "RoleRevoked")
        .withArgs(role, stranger.address, admin.address);
      await expect(useRole(stranger))
        .to.be.revertedWithCustomError(contract, "AccessControlUnauthorizedAccount")
        .withArgs(stranger.address, role);
    });

    it("refuses role management to anyone but the admin", async function () {
      const { contract, stranger, role } = await load();
      await expect(contract.connect(stranger).grantRole(role, stranger.address))
        .to.be.revertedWithCustomError(contract, "AccessControlUnauthorizedAccount")
        .withArgs(stranger.address, DEFAULT_ADMIN_ROLE);
    });

    it("refuses to grant the admin role directly", async function () {
      const { contract, admin, newAdmin } = await load();
      await expect(
        contract.connect(admin).grantRole(DEFAULT_ADMIN_ROLE, newAdmin.address),
      ).to.be.revertedWithCustomError(contract, "AccessControlEnforcedDefaultAdminRules");
    });
  });

  describe("two-step admin transfer", function () {
    it("starts with the admin and delay given to the constructor", async function () {
      const { contract, admin } = await load();
      expect(await contract.defaultAdmin()).to.equal(admin.address);
      expect(await contract.defaultAdminDelay()).to.equal(ADMIN_DELAY);
    });

    it("refuses to start a transfer to anyone but the admin", async function () {
      const { contract, stranger, newAdmin } = await load();
      await expect(contract.connect(stranger).beginDefaultAdminTransfer(newAdmin.address))
        .to.be.revertedWithCustomError(contract, "AccessControlUnauthorizedAccount")
        .withArgs(stranger.address, DEFAULT_ADMIN_ROLE);
    });

    describe("when a transfer was started", function () {
      async function startedFixture() {
        const fixture = await load();
        const { contract, admin, newAdmin } = fixture;
        const tx = contract.connect(admin).beginDefaultAdminTransfer(newAdmin.address);
        await expect(tx).to.emit(contract, "DefaultAdminTransferScheduled");
        const [, schedule] = await contract.pendingDefaultAdmin();
        return { ...fixture, schedule };
      }

      it("schedules it after the delay", async function () {
        const { contract, newAdmin, schedule } = await startedFixture();
        const [pending] = await contract.pendingDefaultAdmin();
        expect(pending).to.equal(newAdmin.address);
        expect(schedule).to.equal(BigInt(await time.latest()) + ADMIN_DELAY);
      });

      it("refuses acceptance before the delay has passed", async function () {
        const { contract, newAdmin, schedule } = await startedFixture();
        await expect(contract.connect(newAdmin).acceptDefaultAdminTransfer())
          .to.be.revertedWithCustomError(contract, "AccessControlEnforcedDefaultAdminDelay")
          .withArgs(schedule);
      });

      it("refuses acceptance by anyone but the pending admin", async function () {
        const { contract, stranger, schedule } = await startedFixture();
        await time.increaseTo(schedule + 1n);
        await expect(contract.connect(stranger).acceptDefaultAdminTransfer())
          .to.be.revertedWithCustomError(contract, "AccessControlInvalidDefaultAdmin")
          .withArgs(stranger.address);
      });

      it("hands the admin role over once accepted after the delay", async function () {
        const { contract, admin, newAdmin, schedule, useAdmin } = await startedFixture();
        await time.increaseTo(schedule + 1n);
        await expect(contract.connect(newAdmin).acceptDefaultAdminTransfer())
          .to.emit(contract, "RoleRevoked")
          .withArgs(DEFAULT_ADMIN_ROLE, admin.address, newAdmin.address)
          .and.to.emit(contract, "RoleGranted")
          .withArgs(DEFAULT_ADMIN_ROLE, newAdmin.address, newAdmin.address);

        expect(await contract.defaultAdmin()).to.equal(newAdmin.address);
        expect(await contract.hasRole(DEFAULT_ADMIN_ROLE, admin.address)).to.equal(false);
        await expect(useAdmin(newAdmin)).not.to.be.reverted;
        await expect(useAdmin(admin))
          .to.be.revertedWithCustomError(contract, "AccessControlUnauthorizedAccount")
          .withArgs(admin.address, DEFAULT_ADMIN_ROLE);
      });

      it("can be cancelled by the admin", async function () {
        const { contract, admin, newAdmin, schedule } = await startedFixture();
        await expect(contract.connect(admin).cancelDefaultAdminTransfer()).to.emit(
          contract,
          "DefaultAdminTransferCanceled",
        );
        await time.increaseTo(schedule + 1n);
        await expect(contract.connect(newAdmin).acceptDefaultAdminTransfer())
          .to.be.revertedWithCustomError(contract, "AccessControlInvalidDefaultAdmin")
          .withArgs(newAdmin.address);
        expect(await contract.defaultAdmin()).to.equal(admin.address);
      });
    });
  });
}
