// Behaviour of ProductPassport: minting, passport maintenance, roles, ERC-721 transfers with lazy custodial ownership.
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { PANIC_CODES } from "@nomicfoundation/hardhat-chai-matchers/panic";
import {
  ADMIN_DELAY,
  DEFAULT_ADMIN_ROLE,
  INTERFACE_IDS,
  eventNames,
  hashOf,
  interfaceId,
  shouldBehaveLikeDefaultAdminRules,
  tokenIdOf,
} from "./helpers";

const BASE_URI = "http://127.0.0.1:3000/api/nft/";
const FACTORY_ID = 7n;
const MAX_BATCH = 200n;
const MINTER_ROLE = ethers.id("MINTER_ROLE");

const Status = { Active: 0n, Lost: 1n, Stolen: 2n, Recovered: 3n } as const;
type StatusName = keyof typeof Status;

/** Receiver mock behaviours, in the order of ERC721ReceiverMock.Behaviour. */
const Receiver = { Accept: 0, WrongValue: 1, RevertWithMessage: 2, RevertWithCustomError: 3, RevertEmpty: 4, Panic: 5 };

const UID = "ACME-7Q2M4K9X";
const ID = tokenIdOf(UID);
const HASH = hashOf("passport content v1");

describe("ProductPassport", function () {
  async function deployFixture() {
    const [wallet, admin, alice, bob, stranger, newAdmin] = await ethers.getSigners();
    const passport = await ethers.deployContract("ProductPassport", [
      admin.address,
      ADMIN_DELAY,
      wallet.address,
      BASE_URI,
    ]);
    return { passport, wallet, admin, alice, bob, stranger, newAdmin };
  }

  /** One passport with the custodian (`ID`), one with alice (`ALICE_ID`). */
  const ALICE_ID = tokenIdOf("ACME-ALICE0001");
  async function mintedFixture() {
    const fixture = await deployFixture();
    const { passport, wallet, alice } = fixture;
    await passport.mint(wallet.address, ID, FACTORY_ID, HASH);
    await passport.mint(alice.address, ALICE_ID, FACTORY_ID, hashOf("alice"));
    return fixture;
  }

  async function receiverFixture() {
    const fixture = await mintedFixture();
    const deployReceiver = (behaviour: number) => ethers.deployContract("ERC721ReceiverMock", [behaviour]);
    const nonReceiver = await ethers.deployContract("NonReceiverMock");
    return { ...fixture, deployReceiver, nonReceiver };
  }

  describe("deployment", function () {
    it("has the passport collection's name and symbol", async function () {
      const { passport } = await loadFixture(deployFixture);
      expect(await passport.name()).to.equal("Passport Registry Product Passport");
      expect(await passport.symbol()).to.equal("DPP");
    });

    it("makes the minter the custodian and gives the roles", async function () {
      const { passport, wallet, admin } = await loadFixture(deployFixture);
      expect(await passport.custodian()).to.equal(wallet.address);
      expect(await passport.hasRole(MINTER_ROLE, wallet.address)).to.equal(true);
      expect(await passport.hasRole(DEFAULT_ADMIN_ROLE, admin.address)).to.equal(true);
      expect(await passport.hasRole(DEFAULT_ADMIN_ROLE, wallet.address)).to.equal(false);
      expect(await passport.MINTER_ROLE()).to.equal(MINTER_ROLE);
    });

    it("exposes the batch and stage limits", async function () {
      const { passport } = await loadFixture(deployFixture);
      expect(await passport.MAX_BATCH()).to.equal(MAX_BATCH);
      expect(await passport.MAX_STAGE()).to.equal(12n);
    });

    it("starts with no passports", async function () {
      const { passport, wallet } = await loadFixture(deployFixture);
      expect(await passport.balanceOf(wallet.address)).to.equal(0n);
      expect(await passport.exists(ID)).to.equal(false);
    });

    describe("when the minter is the zero address", function () {
      it("reverts, since the custodian must be able to own passports", async function () {
        const { passport, admin } = await loadFixture(deployFixture);
        const factory = await ethers.getContractFactory("ProductPassport");
        await expect(factory.deploy(admin.address, 0, ethers.ZeroAddress, BASE_URI))
          .to.be.revertedWithCustomError(passport, "ERC721InvalidOwner")
          .withArgs(ethers.ZeroAddress);
      });
    });

    describe("when the admin is the zero address", function () {
      it("reverts", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        const factory = await ethers.getContractFactory("ProductPassport");
        await expect(factory.deploy(ethers.ZeroAddress, 0, wallet.address, BASE_URI))
          .to.be.revertedWithCustomError(passport, "AccessControlInvalidDefaultAdmin")
          .withArgs(ethers.ZeroAddress);
      });
    });
  });

  describe("supportsInterface", function () {
    const ownInterfaceId = interfaceId([
      "mint(address,uint256,uint64,bytes32)",
      "mintBatch(address,uint64,uint256[],bytes32[])",
      "updateDataHash(uint256,bytes32)",
      "setStatus(uint256,uint8)",
      "assignTag(uint256,bytes32)",
      "recordSupplyChainEvent(uint256,uint64,uint8,bytes32)",
      "setBaseURI(string)",
      "dataHashOf(uint256)",
      "statusOf(uint256)",
      "tagOf(uint256)",
      "passportOfTag(bytes32)",
      "exists(uint256)",
      "tokenIdOf(string)",
      "custodian()",
      "MAX_BATCH()",
      "MAX_STAGE()",
    ]);

    for (const [name, id] of Object.entries({ ...INTERFACE_IDS, IProductPassport: ownInterfaceId })) {
      it(`supports ${name} (${id})`, async function () {
        const { passport } = await loadFixture(deployFixture);
        expect(await passport.supportsInterface(id)).to.equal(true);
      });
    }

    it("does not support other ids", async function () {
      const { passport } = await loadFixture(deployFixture);
      expect(await passport.supportsInterface("0xffffffff")).to.equal(false);
      expect(await passport.supportsInterface("0x12345678")).to.equal(false);
    });
  });

  describe("mint", function () {
    describe("when the caller is not a minter", function () {
      it("reverts", async function () {
        const { passport, stranger } = await loadFixture(deployFixture);
        await expect(passport.connect(stranger).mint(stranger.address, ID, FACTORY_ID, HASH))
          .to.be.revertedWithCustomError(passport, "AccessControlUnauthorizedAccount")
          .withArgs(stranger.address, MINTER_ROLE);
      });
    });

    describe("when minting to the custodian", function () {
      it("emits PassportsMinted for one passport, then its Transfer", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        const tx = passport.mint(wallet.address, ID, FACTORY_ID, HASH);
        await expect(tx)
          .to.emit(passport, "PassportsMinted")
          .withArgs(FACTORY_ID, 1n)
          .and.to.emit(passport, "Transfer")
          .withArgs(ethers.ZeroAddress, wallet.address, ID);
        expect(await eventNames(passport, passport.mint(wallet.address, ID + 1n, FACTORY_ID, HASH))).to.deep.equal([
          "PassportsMinted",
          "Transfer",
        ]);
      });

      it("creates an Active passport owned by the custodian", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        await passport.mint(wallet.address, ID, FACTORY_ID, HASH);
        expect(await passport.exists(ID)).to.equal(true);
        expect(await passport.ownerOf(ID)).to.equal(wallet.address);
        expect(await passport.balanceOf(wallet.address)).to.equal(1n);
        expect(await passport.dataHashOf(ID)).to.equal(HASH);
        expect(await passport.statusOf(ID)).to.equal(Status.Active);
        expect(await passport.tagOf(ID)).to.equal(ethers.ZeroHash);
        expect(await passport.getApproved(ID)).to.equal(ethers.ZeroAddress);
        expect(await passport.tokenURI(ID)).to.equal(`${BASE_URI}${ID}`);
      });
    });

    describe("when minting to another account", function () {
      it("makes that account the owner", async function () {
        const { passport, wallet, alice } = await loadFixture(deployFixture);
        await expect(passport.mint(alice.address, ID, FACTORY_ID, HASH))
          .to.emit(passport, "Transfer")
          .withArgs(ethers.ZeroAddress, alice.address, ID);
        expect(await passport.ownerOf(ID)).to.equal(alice.address);
        expect(await passport.balanceOf(alice.address)).to.equal(1n);
        expect(await passport.balanceOf(wallet.address)).to.equal(0n);
      });
    });

    describe("when minting to a contract", function () {
      it("calls onERC721Received on a receiver", async function () {
        const { passport, wallet, deployReceiver } = await loadFixture(receiverFixture);
        const receiver = await deployReceiver(Receiver.Accept);
        const id = tokenIdOf("ACME-RECEIVER1");
        await expect(passport.mint(receiver, id, FACTORY_ID, HASH))
          .to.emit(receiver, "Received")
          .withArgs(wallet.address, ethers.ZeroAddress, id, "0x");
        expect(await passport.ownerOf(id)).to.equal(await receiver.getAddress());
      });

      it("reverts for a contract that is not a receiver", async function () {
        const { passport, nonReceiver } = await loadFixture(receiverFixture);
        await expect(passport.mint(nonReceiver, 1n, FACTORY_ID, HASH))
          .to.be.revertedWithCustomError(passport, "ERC721InvalidReceiver")
          .withArgs(await nonReceiver.getAddress());
      });

      for (const behaviour of ["WrongValue", "RevertEmpty"] as const) {
        it(`reverts for a receiver that answers ${behaviour}`, async function () {
          const { passport, deployReceiver } = await loadFixture(receiverFixture);
          const receiver = await deployReceiver(Receiver[behaviour]);
          await expect(passport.mint(receiver, 1n, FACTORY_ID, HASH))
            .to.be.revertedWithCustomError(passport, "ERC721InvalidReceiver")
            .withArgs(await receiver.getAddress());
        });
      }

      it("bubbles up the receiver's own revert", async function () {
        const { passport, deployReceiver } = await loadFixture(receiverFixture);
        const withMessage = await deployReceiver(Receiver.RevertWithMessage);
        await expect(passport.mint(withMessage, 1n, FACTORY_ID, HASH)).to.be.revertedWith(
          "ERC721ReceiverMock: reverting",
        );
        const withError = await deployReceiver(Receiver.RevertWithCustomError);
        await expect(passport.mint(withError, 1n, FACTORY_ID, HASH))
          .to.be.revertedWithCustomError(withError, "CustomError")
          .withArgs("0x150b7a02");
        const panicking = await deployReceiver(Receiver.Panic);
        await expect(passport.mint(panicking, 1n, FACTORY_ID, HASH)).to.be.revertedWithPanic(
          PANIC_CODES.DIVISION_BY_ZERO,
        );
      });
    });

    describe("when an argument is invalid", function () {
      it("reverts for the zero address", async function () {
        const { passport } = await loadFixture(deployFixture);
        await expect(passport.mint(ethers.ZeroAddress, ID, FACTORY_ID, HASH))
          .to.be.revertedWithCustomError(passport, "ERC721InvalidReceiver")
          .withArgs(ethers.ZeroAddress);
      });

      it("reverts for token id zero", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        await expect(passport.mint(wallet.address, 0n, FACTORY_ID, HASH)).to.be.revertedWithCustomError(
          passport,
          "InvalidTokenId",
        );
      });

      it("reverts for a zero data hash", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        await expect(passport.mint(wallet.address, ID, FACTORY_ID, ethers.ZeroHash)).to.be.revertedWithCustomError(
          passport,
          "InvalidDataHash",
        );
      });

      it("accepts factory id zero, an undeclared manufacturer, and says so in the event", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        await expect(passport.mint(wallet.address, ID, 0n, HASH)).to.emit(passport, "PassportsMinted").withArgs(0n, 1n);
        expect(await passport.dataHashOf(ID)).to.equal(HASH);
      });
    });

    describe("when the passport exists already", function () {
      it("reverts, whoever holds it", async function () {
        const { passport, wallet, alice } = await loadFixture(mintedFixture);
        for (const id of [ID, ALICE_ID]) {
          await expect(passport.mint(wallet.address, id, FACTORY_ID, hashOf("other")))
            .to.be.revertedWithCustomError(passport, "PassportAlreadyMinted")
            .withArgs(id);
          await expect(passport.mint(alice.address, id, FACTORY_ID, hashOf("other")))
            .to.be.revertedWithCustomError(passport, "PassportAlreadyMinted")
            .withArgs(id);
        }
      });
    });
  });

  describe("mintBatch", function () {
    const ids = (n: number, prefix = "BATCH") =>
      Array.from({ length: n }, (_, i) => tokenIdOf(`${prefix}-${String(i).padStart(4, "0")}`));
    const hashes = (n: number, prefix = "BATCH") => Array.from({ length: n }, (_, i) => hashOf(`${prefix} ${i}`));

    describe("when the caller is not a minter", function () {
      it("reverts", async function () {
        const { passport, stranger } = await loadFixture(deployFixture);
        await expect(passport.connect(stranger).mintBatch(stranger.address, FACTORY_ID, ids(2), hashes(2)))
          .to.be.revertedWithCustomError(passport, "AccessControlUnauthorizedAccount")
          .withArgs(stranger.address, MINTER_ROLE);
      });
    });

    describe("when the batch is valid", function () {
      it("mints every passport, emitting a Transfer from zero for each", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        const tokenIds = ids(3);
        const dataHashes = hashes(3);
        const tx = passport.mintBatch(wallet.address, FACTORY_ID, tokenIds, dataHashes);
        for (let i = 0; i < 3; i++) {
          await expect(tx).to.emit(passport, "Transfer").withArgs(ethers.ZeroAddress, wallet.address, tokenIds[i]);
          expect(await passport.dataHashOf(tokenIds[i])).to.equal(dataHashes[i]);
          expect(await passport.ownerOf(tokenIds[i])).to.equal(wallet.address);
        }
        expect(await passport.balanceOf(wallet.address)).to.equal(3n);
      });

      it("emits one PassportsMinted with the factory and the count, before the Transfers in token id order", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        const tokenIds = ids(3, "ORDER");
        const receipt = await (await passport.mintBatch(wallet.address, FACTORY_ID, tokenIds, hashes(3))).wait();
        const logs = receipt!.logs.map((log) => passport.interface.parseLog(log)!);
        expect(logs.map((log) => log.name)).to.deep.equal(["PassportsMinted", "Transfer", "Transfer", "Transfer"]);
        expect(logs[0].args.toArray()).to.deep.equal([FACTORY_ID, 3n]);
        expect(logs.slice(1).map((log) => log.args.toArray())).to.deep.equal(
          tokenIds.map((id) => [ethers.ZeroAddress, wallet.address, id]),
        );
      });

      it("mints to another account", async function () {
        const { passport, wallet, alice } = await loadFixture(deployFixture);
        const tokenIds = ids(4);
        await passport.mintBatch(alice.address, FACTORY_ID, tokenIds, hashes(4));
        for (const id of tokenIds) expect(await passport.ownerOf(id)).to.equal(alice.address);
        expect(await passport.balanceOf(alice.address)).to.equal(4n);
        expect(await passport.balanceOf(wallet.address)).to.equal(0n);
      });

      it(`accepts a batch of MAX_BATCH (${MAX_BATCH}) passports`, async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        const tokenIds = ids(Number(MAX_BATCH));
        await passport.mintBatch(wallet.address, FACTORY_ID, tokenIds, hashes(Number(MAX_BATCH)));
        expect(await passport.balanceOf(wallet.address)).to.equal(MAX_BATCH);
        expect(await passport.exists(tokenIds[Number(MAX_BATCH) - 1])).to.equal(true);
      });
    });

    describe("when the sizes are wrong", function () {
      it("reverts on different lengths", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        await expect(passport.mintBatch(wallet.address, FACTORY_ID, ids(2), hashes(1)))
          .to.be.revertedWithCustomError(passport, "BatchLengthMismatch")
          .withArgs(2, 1);
      });

      it("reverts on an empty batch", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        await expect(passport.mintBatch(wallet.address, FACTORY_ID, [], []))
          .to.be.revertedWithCustomError(passport, "InvalidBatchSize")
          .withArgs(0, MAX_BATCH);
      });

      it("reverts on more than MAX_BATCH passports", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        const n = Number(MAX_BATCH) + 1;
        await expect(passport.mintBatch(wallet.address, FACTORY_ID, ids(n), hashes(n)))
          .to.be.revertedWithCustomError(passport, "InvalidBatchSize")
          .withArgs(n, MAX_BATCH);
      });
    });

    describe("when an argument is invalid", function () {
      it("reverts for the zero address", async function () {
        const { passport } = await loadFixture(deployFixture);
        await expect(passport.mintBatch(ethers.ZeroAddress, FACTORY_ID, ids(1), hashes(1)))
          .to.be.revertedWithCustomError(passport, "ERC721InvalidReceiver")
          .withArgs(ethers.ZeroAddress);
      });

      it("accepts factory id zero, an undeclared manufacturer", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        const tokenIds = ids(2);
        await expect(passport.mintBatch(wallet.address, 0n, tokenIds, hashes(2)))
          .to.emit(passport, "PassportsMinted")
          .withArgs(0n, 2n);
        expect(await passport.dataHashOf(tokenIds[1])).to.equal(hashes(2)[1]);
      });

      it("reverts the whole batch for one zero data hash or token id", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        const tokenIds = ids(3);
        const badHashes = hashes(3);
        badHashes[2] = ethers.ZeroHash;
        await expect(passport.mintBatch(wallet.address, FACTORY_ID, tokenIds, badHashes)).to.be.revertedWithCustomError(
          passport,
          "InvalidDataHash",
        );
        await expect(
          passport.mintBatch(wallet.address, FACTORY_ID, [tokenIds[0], 0n], hashes(2)),
        ).to.be.revertedWithCustomError(passport, "InvalidTokenId");
        expect(await passport.exists(tokenIds[0])).to.equal(false);
      });
    });

    describe("when a token id is a duplicate", function () {
      it("reverts the whole batch for an id minted before", async function () {
        const { passport, wallet } = await loadFixture(mintedFixture);
        const tokenIds = [...ids(2), ALICE_ID];
        await expect(passport.mintBatch(wallet.address, FACTORY_ID, tokenIds, hashes(3)))
          .to.be.revertedWithCustomError(passport, "PassportAlreadyMinted")
          .withArgs(ALICE_ID);
        expect(await passport.exists(tokenIds[0])).to.equal(false);
      });

      it("reverts the whole batch for an id repeated inside it", async function () {
        const { passport, wallet } = await loadFixture(deployFixture);
        const [a, b] = ids(2);
        await expect(passport.mintBatch(wallet.address, FACTORY_ID, [a, b, a], hashes(3)))
          .to.be.revertedWithCustomError(passport, "PassportAlreadyMinted")
          .withArgs(a);
        expect(await passport.exists(a)).to.equal(false);
        expect(await passport.balanceOf(wallet.address)).to.equal(0n);
      });
    });

    describe("when minting to a contract", function () {
      it("asks a receiver once, for the first token", async function () {
        const { passport, wallet, deployReceiver } = await loadFixture(receiverFixture);
        const receiver = await deployReceiver(Receiver.Accept);
        const tokenIds = ids(3);
        const tx = passport.mintBatch(receiver, FACTORY_ID, tokenIds, hashes(3));
        await expect(tx).to.emit(receiver, "Received").withArgs(wallet.address, ethers.ZeroAddress, tokenIds[0], "0x");
        const receipt = await (await tx).wait();
        const receiverAddress = (await receiver.getAddress()).toLowerCase();
        expect(receipt!.logs.filter((log) => log.address.toLowerCase() === receiverAddress)).to.have.length(1);
        expect(await passport.balanceOf(receiver)).to.equal(3n);
      });

      it("reverts for a contract that is not a receiver", async function () {
        const { passport, nonReceiver } = await loadFixture(receiverFixture);
        await expect(passport.mintBatch(nonReceiver, FACTORY_ID, ids(2), hashes(2)))
          .to.be.revertedWithCustomError(passport, "ERC721InvalidReceiver")
          .withArgs(await nonReceiver.getAddress());
      });
    });
  });

  describe("updateDataHash", function () {
    const NEW_HASH = hashOf("passport content v2");

    describe("when the caller is not a minter", function () {
      it("reverts", async function () {
        const { passport, stranger } = await loadFixture(mintedFixture);
        await expect(passport.connect(stranger).updateDataHash(ID, NEW_HASH))
          .to.be.revertedWithCustomError(passport, "AccessControlUnauthorizedAccount")
          .withArgs(stranger.address, MINTER_ROLE);
      });
    });

    describe("when the passport exists", function () {
      it("re-anchors the hash and emits DataHashUpdated and MetadataUpdate", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await expect(passport.updateDataHash(ID, NEW_HASH))
          .to.emit(passport, "DataHashUpdated")
          .withArgs(ID, HASH, NEW_HASH)
          .and.to.emit(passport, "MetadataUpdate")
          .withArgs(ID);
        expect(await passport.dataHashOf(ID)).to.equal(NEW_HASH);
      });

      it("works on a passport held by another account, or flagged", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await passport.setStatus(ALICE_ID, Status.Stolen);
        await expect(passport.updateDataHash(ALICE_ID, NEW_HASH)).to.emit(passport, "DataHashUpdated");
      });

      it("reverts for a zero hash", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await expect(passport.updateDataHash(ID, ethers.ZeroHash)).to.be.revertedWithCustomError(
          passport,
          "InvalidDataHash",
        );
      });

      it("reverts for the anchored hash", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await expect(passport.updateDataHash(ID, HASH))
          .to.be.revertedWithCustomError(passport, "DataHashUnchanged")
          .withArgs(ID);
      });
    });

    describe("when the passport does not exist", function () {
      it("reverts", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await expect(passport.updateDataHash(ID + 1n, NEW_HASH))
          .to.be.revertedWithCustomError(passport, "PassportNotFound")
          .withArgs(ID + 1n);
      });
    });
  });

  describe("setStatus", function () {
    /** How to bring a fresh passport into each status through allowed transitions. */
    const PATH_TO: Record<StatusName, bigint[]> = {
      Active: [],
      Lost: [Status.Lost],
      Stolen: [Status.Stolen],
      Recovered: [Status.Lost, Status.Recovered],
    };
    const ALLOWED: Record<StatusName, StatusName[]> = {
      Active: ["Lost", "Stolen"],
      Lost: ["Stolen", "Recovered"],
      Stolen: ["Lost", "Recovered"],
      Recovered: ["Lost", "Stolen"],
    };

    describe("when the caller is not a minter", function () {
      it("reverts", async function () {
        const { passport, stranger } = await loadFixture(mintedFixture);
        await expect(passport.connect(stranger).setStatus(ID, Status.Lost))
          .to.be.revertedWithCustomError(passport, "AccessControlUnauthorizedAccount")
          .withArgs(stranger.address, MINTER_ROLE);
      });
    });

    for (const from of Object.keys(Status) as StatusName[]) {
      describe(`when the passport is ${from}`, function () {
        for (const to of Object.keys(Status) as StatusName[]) {
          if (ALLOWED[from].includes(to)) {
            it(`moves to ${to}`, async function () {
              const { passport } = await loadFixture(mintedFixture);
              for (const step of PATH_TO[from]) await passport.setStatus(ID, step);
              await expect(passport.setStatus(ID, Status[to]))
                .to.emit(passport, "PassportStatusChanged")
                .withArgs(ID, Status[from], Status[to]);
              expect(await passport.statusOf(ID)).to.equal(Status[to]);
            });
          } else {
            it(`refuses ${to}`, async function () {
              const { passport } = await loadFixture(mintedFixture);
              for (const step of PATH_TO[from]) await passport.setStatus(ID, step);
              await expect(passport.setStatus(ID, Status[to]))
                .to.be.revertedWithCustomError(passport, "InvalidStatusTransition")
                .withArgs(ID, Status[from], Status[to]);
            });
          }
        }
      });
    }

    it("rejects a status outside the enum", async function () {
      const { passport } = await loadFixture(mintedFixture);
      await expect(passport.setStatus(ID, 4)).to.be.reverted;
    });

    describe("when the passport does not exist", function () {
      it("reverts", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await expect(passport.setStatus(ID + 1n, Status.Lost))
          .to.be.revertedWithCustomError(passport, "PassportNotFound")
          .withArgs(ID + 1n);
      });
    });
  });

  describe("assignTag", function () {
    const TAG = hashOf("04:A2:3B:1C:5D:80:00");
    const OTHER_TAG = hashOf("04:FF:FF:FF:FF:80:00");

    describe("when the caller is not a minter", function () {
      it("reverts", async function () {
        const { passport, stranger } = await loadFixture(mintedFixture);
        await expect(passport.connect(stranger).assignTag(ID, TAG))
          .to.be.revertedWithCustomError(passport, "AccessControlUnauthorizedAccount")
          .withArgs(stranger.address, MINTER_ROLE);
      });
    });

    describe("when the passport has no tag", function () {
      it("assigns the tag both ways", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await expect(passport.assignTag(ID, TAG)).to.emit(passport, "TagAssigned").withArgs(ID, TAG, ethers.ZeroHash);
        expect(await passport.tagOf(ID)).to.equal(TAG);
        expect(await passport.passportOfTag(TAG)).to.equal(ID);
      });
    });

    describe("when the passport has a tag", function () {
      async function taggedFixture() {
        const fixture = await mintedFixture();
        await fixture.passport.assignTag(ID, TAG);
        return fixture;
      }

      it("replaces it and frees the old tag", async function () {
        const { passport } = await loadFixture(taggedFixture);
        await expect(passport.assignTag(ID, OTHER_TAG)).to.emit(passport, "TagAssigned").withArgs(ID, OTHER_TAG, TAG);
        expect(await passport.tagOf(ID)).to.equal(OTHER_TAG);
        expect(await passport.passportOfTag(OTHER_TAG)).to.equal(ID);
        expect(await passport.passportOfTag(TAG)).to.equal(0n);

        await expect(passport.assignTag(ALICE_ID, TAG))
          .to.emit(passport, "TagAssigned")
          .withArgs(ALICE_ID, TAG, ethers.ZeroHash);
        expect(await passport.passportOfTag(TAG)).to.equal(ALICE_ID);
      });

      it("refuses that tag on another passport", async function () {
        const { passport } = await loadFixture(taggedFixture);
        await expect(passport.assignTag(ALICE_ID, TAG))
          .to.be.revertedWithCustomError(passport, "TagAlreadyAssigned")
          .withArgs(TAG, ID);
      });

      it("refuses that tag again on the same passport", async function () {
        const { passport } = await loadFixture(taggedFixture);
        await expect(passport.assignTag(ID, TAG))
          .to.be.revertedWithCustomError(passport, "TagAlreadyAssigned")
          .withArgs(TAG, ID);
      });
    });

    describe("when an argument is invalid", function () {
      it("reverts for a zero tag hash", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await expect(passport.assignTag(ID, ethers.ZeroHash)).to.be.revertedWithCustomError(passport, "InvalidTagHash");
      });

      it("reverts for a missing passport", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await expect(passport.assignTag(ID + 1n, TAG))
          .to.be.revertedWithCustomError(passport, "PassportNotFound")
          .withArgs(ID + 1n);
      });
    });
  });

  describe("recordSupplyChainEvent", function () {
    const DETAILS = hashOf("sewn at line 3");

    describe("when the caller is not a minter", function () {
      it("reverts", async function () {
        const { passport, stranger } = await loadFixture(mintedFixture);
        await expect(passport.connect(stranger).recordSupplyChainEvent(ID, FACTORY_ID, 6, DETAILS))
          .to.be.revertedWithCustomError(passport, "AccessControlUnauthorizedAccount")
          .withArgs(stranger.address, MINTER_ROLE);
      });
    });

    describe("when the arguments are valid", function () {
      for (const stage of [1, 6, 12]) {
        it(`records stage ${stage}`, async function () {
          const { passport } = await loadFixture(mintedFixture);
          await expect(passport.recordSupplyChainEvent(ID, FACTORY_ID, stage, DETAILS))
            .to.emit(passport, "SupplyChainEventRecorded")
            .withArgs(ID, FACTORY_ID, stage, DETAILS);
        });
      }
    });

    describe("when an argument is invalid", function () {
      for (const stage of [0, 13, 255]) {
        it(`reverts for stage ${stage}`, async function () {
          const { passport } = await loadFixture(mintedFixture);
          await expect(passport.recordSupplyChainEvent(ID, FACTORY_ID, stage, DETAILS))
            .to.be.revertedWithCustomError(passport, "InvalidStage")
            .withArgs(stage);
        });
      }

      it("reverts for factory id zero", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await expect(passport.recordSupplyChainEvent(ID, 0n, 6, DETAILS)).to.be.revertedWithCustomError(
          passport,
          "InvalidFactoryId",
        );
      });

      it("reverts for a missing passport", async function () {
        const { passport } = await loadFixture(mintedFixture);
        await expect(passport.recordSupplyChainEvent(ID + 1n, FACTORY_ID, 6, DETAILS))
          .to.be.revertedWithCustomError(passport, "PassportNotFound")
          .withArgs(ID + 1n);
      });
    });
  });

  describe("setBaseURI and tokenURI", function () {
    const NEW_BASE = "https://passports.example.org/api/nft/";

    describe("when the caller is the admin", function () {
      it("changes every tokenURI and emits BaseURIUpdated and BatchMetadataUpdate", async function () {
        const { passport, admin } = await loadFixture(mintedFixture);
        await expect(passport.connect(admin).setBaseURI(NEW_BASE))
          .to.emit(passport, "BaseURIUpdated")
          .withArgs(NEW_BASE)
          .and.to.emit(passport, "BatchMetadataUpdate")
          .withArgs(0n, ethers.MaxUint256);
        expect(await passport.tokenURI(ID)).to.equal(`${NEW_BASE}${ID}`);
        expect(await passport.tokenURI(ALICE_ID)).to.equal(`${NEW_BASE}${ALICE_ID}`);
      });

      it("makes tokenURI empty with an empty base", async function () {
        const { passport, admin } = await loadFixture(mintedFixture);
        await passport.connect(admin).setBaseURI("");
        expect(await passport.tokenURI(ID)).to.equal("");
      });
    });

    describe("when the caller is not the admin", function () {
      it("reverts, even for the minter", async function () {
        const { passport, wallet } = await loadFixture(mintedFixture);
        await expect(passport.connect(wallet).setBaseURI(NEW_BASE))
          .to.be.revertedWithCustomError(passport, "AccessControlUnauthorizedAccount")
          .withArgs(wallet.address, DEFAULT_ADMIN_ROLE);
      });
    });

    it("reverts tokenURI for a missing passport", async function () {
      const { passport } = await loadFixture(mintedFixture);
      await expect(passport.tokenURI(ID + 1n))
        .to.be.revertedWithCustomError(passport, "ERC721NonexistentToken")
        .withArgs(ID + 1n);
    });
  });

  describe("views", function () {
    it("compute the token id of a UID as keccak256 of its bytes", async function () {
      const { passport } = await loadFixture(deployFixture);
      expect(await passport.tokenIdOf(UID)).to.equal(ID);
      expect(await passport.tokenIdOf("")).to.equal(BigInt(ethers.keccak256("0x")));
    });

    describe("when the passport does not exist", function () {
      it("revert PassportNotFound for its data hash, status and tag", async function () {
        const { passport } = await loadFixture(mintedFixture);
        for (const view of [passport.dataHashOf, passport.statusOf, passport.tagOf]) {
          await expect(view(ID + 1n))
            .to.be.revertedWithCustomError(passport, "PassportNotFound")
            .withArgs(ID + 1n);
        }
      });

      it("revert ERC721NonexistentToken for its owner and approval", async function () {
        const { passport } = await loadFixture(mintedFixture);
        for (const view of [passport.ownerOf, passport.getApproved]) {
          await expect(view(ID + 1n))
            .to.be.revertedWithCustomError(passport, "ERC721NonexistentToken")
            .withArgs(ID + 1n);
        }
      });

      it("say it does not exist", async function () {
        const { passport } = await loadFixture(mintedFixture);
        expect(await passport.exists(ID + 1n)).to.equal(false);
        expect(await passport.passportOfTag(hashOf("unknown tag"))).to.equal(0n);
      });
    });

    it("refuse the balance of the zero address", async function () {
      const { passport } = await loadFixture(deployFixture);
      await expect(passport.balanceOf(ethers.ZeroAddress))
        .to.be.revertedWithCustomError(passport, "ERC721InvalidOwner")
        .withArgs(ethers.ZeroAddress);
    });
  });

  describe("transfers", function () {
    describe("when the passport goes custodian -> alice -> bob -> custodian", function () {
      it("keeps ownerOf and balances right at every step", async function () {
        const { passport, wallet, alice, bob } = await loadFixture(mintedFixture);
        const balances = async () =>
          Promise.all([wallet, alice, bob].map(async (s) => passport.balanceOf(s.address)));
        expect(await balances()).to.deep.equal([1n, 1n, 0n]);

        await expect(passport.connect(wallet).transferFrom(wallet.address, alice.address, ID))
          .to.emit(passport, "Transfer")
          .withArgs(wallet.address, alice.address, ID);
        expect(await passport.ownerOf(ID)).to.equal(alice.address);
        expect(await balances()).to.deep.equal([0n, 2n, 0n]);

        await expect(passport.connect(alice).transferFrom(alice.address, bob.address, ID))
          .to.emit(passport, "Transfer")
          .withArgs(alice.address, bob.address, ID);
        expect(await passport.ownerOf(ID)).to.equal(bob.address);
        expect(await balances()).to.deep.equal([0n, 1n, 1n]);

        await expect(passport.connect(bob).transferFrom(bob.address, wallet.address, ID))
          .to.emit(passport, "Transfer")
          .withArgs(bob.address, wallet.address, ID);
        expect(await passport.ownerOf(ID)).to.equal(wallet.address);
        expect(await balances()).to.deep.equal([1n, 1n, 0n]);
        // The passport is with the custodian again, and moves on as before.
        await passport.connect(wallet).transferFrom(wallet.address, bob.address, ID);
        expect(await passport.ownerOf(ID)).to.equal(bob.address);
      });
    });

    it("lets an owner transfer to itself", async function () {
      const { passport, wallet, alice } = await loadFixture(mintedFixture);
      for (const [owner, id] of [
        [wallet, ID],
        [alice, ALICE_ID],
      ] as const) {
        await expect(passport.connect(owner).transferFrom(owner.address, owner.address, id))
          .to.emit(passport, "Transfer")
          .withArgs(owner.address, owner.address, id);
        expect(await passport.ownerOf(id)).to.equal(owner.address);
        expect(await passport.balanceOf(owner.address)).to.equal(1n);
      }
    });

    describe("when the caller is approved", function () {
      it("lets the approved account transfer once, then clears the approval", async function () {
        const { passport, wallet, bob } = await loadFixture(mintedFixture);
        await expect(passport.connect(wallet).approve(bob.address, ID))
          .to.emit(passport, "Approval")
          .withArgs(wallet.address, bob.address, ID);
        expect(await passport.getApproved(ID)).to.equal(bob.address);

        await passport.connect(bob).transferFrom(wallet.address, bob.address, ID);
        expect(await passport.ownerOf(ID)).to.equal(bob.address);
        expect(await passport.getApproved(ID)).to.equal(ethers.ZeroAddress);
      });

      it("lets an operator transfer every passport of the owner", async function () {
        const { passport, alice, bob } = await loadFixture(mintedFixture);
        await expect(passport.connect(alice).setApprovalForAll(bob.address, true))
          .to.emit(passport, "ApprovalForAll")
          .withArgs(alice.address, bob.address, true);
        expect(await passport.isApprovedForAll(alice.address, bob.address)).to.equal(true);
        await passport.connect(bob).transferFrom(alice.address, bob.address, ALICE_ID);
        expect(await passport.ownerOf(ALICE_ID)).to.equal(bob.address);
      });

      it("lets an operator approve", async function () {
        const { passport, alice, bob, stranger } = await loadFixture(mintedFixture);
        await passport.connect(alice).setApprovalForAll(bob.address, true);
        await passport.connect(bob).approve(stranger.address, ALICE_ID);
        expect(await passport.getApproved(ALICE_ID)).to.equal(stranger.address);
      });
    });

    describe("when the caller is not allowed", function () {
      it("reverts for a stranger, and for the minter on someone else's passport", async function () {
        const { passport, wallet, alice, stranger } = await loadFixture(mintedFixture);
        await expect(passport.connect(stranger).transferFrom(wallet.address, stranger.address, ID))
          .to.be.revertedWithCustomError(passport, "ERC721InsufficientApproval")
          .withArgs(stranger.address, ID);
        await expect(passport.connect(wallet).transferFrom(alice.address, wallet.address, ALICE_ID))
          .to.be.revertedWithCustomError(passport, "ERC721InsufficientApproval")
          .withArgs(wallet.address, ALICE_ID);
      });

      it("refuses approve by a non-owner", async function () {
        const { passport, stranger } = await loadFixture(mintedFixture);
        await expect(passport.connect(stranger).approve(stranger.address, ID))
          .to.be.revertedWithCustomError(passport, "ERC721InvalidApprover")
          .withArgs(stranger.address);
      });

      it("refuses the zero address as operator", async function () {
        const { passport, alice } = await loadFixture(mintedFixture);
        await expect(passport.connect(alice).setApprovalForAll(ethers.ZeroAddress, true))
          .to.be.revertedWithCustomError(passport, "ERC721InvalidOperator")
          .withArgs(ethers.ZeroAddress);
      });
    });

    describe("when an argument is invalid", function () {
      it("reverts for a wrong `from`", async function () {
        const { passport, wallet, alice } = await loadFixture(mintedFixture);
        await expect(passport.connect(wallet).transferFrom(alice.address, alice.address, ID))
          .to.be.revertedWithCustomError(passport, "ERC721IncorrectOwner")
          .withArgs(alice.address, ID, wallet.address);
      });

      it("reverts for the zero address as receiver", async function () {
        const { passport, wallet } = await loadFixture(mintedFixture);
        await expect(passport.connect(wallet).transferFrom(wallet.address, ethers.ZeroAddress, ID))
          .to.be.revertedWithCustomError(passport, "ERC721InvalidReceiver")
          .withArgs(ethers.ZeroAddress);
      });

      it("reverts for a missing passport", async function () {
        const { passport, wallet } = await loadFixture(mintedFixture);
        await expect(passport.connect(wallet).transferFrom(wallet.address, wallet.address, ID + 1n))
          .to.be.revertedWithCustomError(passport, "ERC721NonexistentToken")
          .withArgs(ID + 1n);
      });
    });

    describe("when the passport is flagged", function () {
      for (const flag of ["Lost", "Stolen"] as const) {
        it(`refuses every transfer of a ${flag} passport`, async function () {
          const { passport, wallet, alice, bob } = await loadFixture(mintedFixture);
          await passport.setStatus(ID, Status[flag]);
          await passport.setStatus(ALICE_ID, Status[flag]);
          await expect(passport.connect(wallet).transferFrom(wallet.address, bob.address, ID))
            .to.be.revertedWithCustomError(passport, "PassportFlagged")
            .withArgs(ID, Status[flag]);
          await expect(
            passport.connect(alice)["safeTransferFrom(address,address,uint256)"](alice.address, bob.address, ALICE_ID),
          )
            .to.be.revertedWithCustomError(passport, "PassportFlagged")
            .withArgs(ALICE_ID, Status[flag]);
        });
      }

      it("allows transfers again once Recovered", async function () {
        const { passport, wallet, bob } = await loadFixture(mintedFixture);
        await passport.setStatus(ID, Status.Stolen);
        await passport.setStatus(ID, Status.Recovered);
        await passport.connect(wallet).transferFrom(wallet.address, bob.address, ID);
        expect(await passport.ownerOf(ID)).to.equal(bob.address);
      });
    });

    describe("safeTransferFrom", function () {
      it("calls onERC721Received on a receiver, with the data", async function () {
        const { passport, wallet, deployReceiver } = await loadFixture(receiverFixture);
        const receiver = await deployReceiver(Receiver.Accept);
        await expect(
          passport["safeTransferFrom(address,address,uint256,bytes)"](wallet.address, receiver, ID, "0x42"),
        )
          .to.emit(receiver, "Received")
          .withArgs(wallet.address, wallet.address, ID, "0x42");
        expect(await passport.ownerOf(ID)).to.equal(await receiver.getAddress());
        expect(await passport.balanceOf(receiver)).to.equal(1n);
      });

      it("transfers to an account without a call", async function () {
        const { passport, wallet, bob } = await loadFixture(receiverFixture);
        await passport["safeTransferFrom(address,address,uint256)"](wallet.address, bob.address, ID);
        expect(await passport.ownerOf(ID)).to.equal(bob.address);
      });

      it("reverts for a contract that is not a receiver", async function () {
        const { passport, wallet, nonReceiver } = await loadFixture(receiverFixture);
        await expect(passport["safeTransferFrom(address,address,uint256)"](wallet.address, nonReceiver, ID))
          .to.be.revertedWithCustomError(passport, "ERC721InvalidReceiver")
          .withArgs(await nonReceiver.getAddress());
        expect(await passport.ownerOf(ID)).to.equal(wallet.address);
      });
    });
  });

  describe("OpenZeppelin's internal _mint and _burn", function () {
    async function harnessFixture() {
      const [wallet, admin] = await ethers.getSigners();
      const harness = await ethers.deployContract("ProductPassportHarness", [admin.address, 0, wallet.address, ""]);
      await harness.mint(wallet.address, ID, FACTORY_ID, HASH);
      return { harness, wallet };
    }

    it("cannot create a passport without a data hash", async function () {
      const { harness, wallet } = await loadFixture(harnessFixture);
      await expect(harness.$mint(wallet.address, ID + 1n))
        .to.be.revertedWithCustomError(harness, "ERC721NonexistentToken")
        .withArgs(ID + 1n);
      await expect(harness.$mint(wallet.address, ID))
        .to.be.revertedWithCustomError(harness, "ERC721InvalidSender")
        .withArgs(ethers.ZeroAddress);
    });

    it("cannot burn a passport", async function () {
      const { harness } = await loadFixture(harnessFixture);
      await expect(harness.$burn(ID))
        .to.be.revertedWithCustomError(harness, "ERC721InvalidReceiver")
        .withArgs(ethers.ZeroAddress);
    });
  });

  describe("access control", function () {
    shouldBehaveLikeDefaultAdminRules(async () => {
      const { passport, admin, newAdmin, stranger } = await loadFixture(mintedFixture);
      return {
        contract: passport,
        admin,
        newAdmin,
        stranger,
        role: MINTER_ROLE,
        useRole: (as) => passport.connect(as).mint(as.address, tokenIdOf("ACME-ROLE0001"), FACTORY_ID, HASH),
        useAdmin: (as) => passport.connect(as).setBaseURI("https://new.example/"),
      };
    });
  });
});
