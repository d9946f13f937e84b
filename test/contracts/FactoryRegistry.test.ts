// Behaviour of FactoryRegistry: registration, profile updates, verification, certifications and roles.
import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import fc from "fast-check";
import {
  ADMIN_DELAY,
  DEFAULT_ADMIN_ROLE,
  INTERFACE_IDS,
  hashOf,
  interfaceId,
  shouldBehaveLikeDefaultAdminRules,
} from "./helpers";

const REGISTRAR_ROLE = ethers.id("REGISTRAR_ROLE");
const VERIFIER_ROLE = ethers.id("VERIFIER_ROLE");
const FACTORY_ID = 42n;
const PROFILE = hashOf("factory profile v1");
const PORTUGAL = "0x5054"; // "PT"
const Certification = { GOTS: 0, OEKO_TEX: 1, ISO9001: 2, GRS: 3, BCI: 4, SA8000: 5, BLUESIGN: 6 };
const ALL_CERTIFICATIONS = 0x7f;

const bytes2 = (text: string) => ethers.hexlify(ethers.toUtf8Bytes(text));

describe("FactoryRegistry", function () {
  async function deployFixture() {
    const [registrar, admin, verifier, stranger, newAdmin] = await ethers.getSigners();
    const registry = await ethers.deployContract("FactoryRegistry", [
      admin.address,
      ADMIN_DELAY,
      registrar.address,
      verifier.address,
    ]);
    return { registry, registrar, admin, verifier, stranger, newAdmin };
  }

  async function registeredFixture() {
    const fixture = await deployFixture();
    await fixture.registry.registerFactory(FACTORY_ID, PROFILE, PORTUGAL);
    return fixture;
  }

  describe("deployment", function () {
    it("gives each role to its holder", async function () {
      const { registry, registrar, admin, verifier } = await loadFixture(deployFixture);
      expect(await registry.hasRole(REGISTRAR_ROLE, registrar.address)).to.equal(true);
      expect(await registry.hasRole(VERIFIER_ROLE, verifier.address)).to.equal(true);
      expect(await registry.hasRole(DEFAULT_ADMIN_ROLE, admin.address)).to.equal(true);
      expect(await registry.hasRole(VERIFIER_ROLE, registrar.address)).to.equal(false);
      expect(await registry.REGISTRAR_ROLE()).to.equal(REGISTRAR_ROLE);
      expect(await registry.VERIFIER_ROLE()).to.equal(VERIFIER_ROLE);
    });

    it("starts empty, with seven certifications defined", async function () {
      const { registry } = await loadFixture(deployFixture);
      expect(await registry.factoryCount()).to.equal(0n);
      expect(await registry.CERTIFICATION_COUNT()).to.equal(7n);
    });

    it("refuses the zero address as admin", async function () {
      const { registry, registrar, verifier } = await loadFixture(deployFixture);
      const factory = await ethers.getContractFactory("FactoryRegistry");
      await expect(factory.deploy(ethers.ZeroAddress, 0, registrar.address, verifier.address))
        .to.be.revertedWithCustomError(registry, "AccessControlInvalidDefaultAdmin")
        .withArgs(ethers.ZeroAddress);
    });
  });

  describe("supportsInterface", function () {
    const ownInterfaceId = interfaceId([
      "registerFactory(uint64,bytes32,bytes2)",
      "updateFactoryMetadata(uint64,bytes32)",
      "verifyFactory(uint64)",
      "unverifyFactory(uint64)",
      "setCertifications(uint64,uint32)",
      "factory(uint64)",
      "isRegistered(uint64)",
      "isVerified(uint64)",
      "certificationsOf(uint64)",
      "factoryCount()",
      "CERTIFICATION_COUNT()",
    ]);
    const supported = {
      ERC165: INTERFACE_IDS.ERC165,
      AccessControl: INTERFACE_IDS.AccessControl,
      AccessControlDefaultAdminRules: INTERFACE_IDS.AccessControlDefaultAdminRules,
      IFactoryRegistry: ownInterfaceId,
    };
    for (const [name, id] of Object.entries(supported)) {
      it(`supports ${name} (${id})`, async function () {
        const { registry } = await loadFixture(deployFixture);
        expect(await registry.supportsInterface(id)).to.equal(true);
      });
    }

    it("does not support ERC-721 or unknown ids", async function () {
      const { registry } = await loadFixture(deployFixture);
      for (const id of [INTERFACE_IDS.ERC721, "0xffffffff"]) {
        expect(await registry.supportsInterface(id)).to.equal(false);
      }
    });
  });

  describe("registerFactory", function () {
    describe("when the caller is not a registrar", function () {
      it("reverts", async function () {
        const { registry, verifier } = await loadFixture(deployFixture);
        await expect(registry.connect(verifier).registerFactory(FACTORY_ID, PROFILE, PORTUGAL))
          .to.be.revertedWithCustomError(registry, "AccessControlUnauthorizedAccount")
          .withArgs(verifier.address, REGISTRAR_ROLE);
      });
    });

    describe("when the factory is new", function () {
      it("stores it unverified, without certifications, at the block time, and emits", async function () {
        const { registry } = await loadFixture(deployFixture);
        await expect(registry.registerFactory(FACTORY_ID, PROFILE, PORTUGAL))
          .to.emit(registry, "FactoryRegistered")
          .withArgs(FACTORY_ID, PROFILE, PORTUGAL);
        const stored = await registry.factory(FACTORY_ID);
        expect(stored.metadataHash).to.equal(PROFILE);
        expect(stored.country).to.equal(PORTUGAL);
        expect(stored.verified).to.equal(false);
        expect(stored.certifications).to.equal(0n);
        expect(stored.registeredAt).to.equal(BigInt(await time.latest()));
        expect(await registry.isRegistered(FACTORY_ID)).to.equal(true);
        expect(await registry.isVerified(FACTORY_ID)).to.equal(false);
        expect(await registry.certificationsOf(FACTORY_ID)).to.equal(0n);
      });

      it("counts every registration", async function () {
        const { registry } = await loadFixture(deployFixture);
        for (let id = 1n; id <= 3n; id++) {
          await registry.registerFactory(id, PROFILE, PORTUGAL);
          expect(await registry.factoryCount()).to.equal(id);
        }
      });

      it("accepts the largest factory id", async function () {
        const { registry } = await loadFixture(deployFixture);
        const maxId = 2n ** 64n - 1n;
        await expect(registry.registerFactory(maxId, PROFILE, bytes2("ZA")))
          .to.emit(registry, "FactoryRegistered")
          .withArgs(maxId, PROFILE, bytes2("ZA"));
      });
    });

    describe("when the factory is registered already", function () {
      it("reverts", async function () {
        const { registry } = await loadFixture(registeredFixture);
        await expect(registry.registerFactory(FACTORY_ID, hashOf("other"), bytes2("DE")))
          .to.be.revertedWithCustomError(registry, "FactoryAlreadyRegistered")
          .withArgs(FACTORY_ID);
        expect(await registry.factoryCount()).to.equal(1n);
      });
    });

    describe("when an argument is invalid", function () {
      it("reverts for factory id zero", async function () {
        const { registry } = await loadFixture(deployFixture);
        await expect(registry.registerFactory(0n, PROFILE, PORTUGAL)).to.be.revertedWithCustomError(
          registry,
          "InvalidFactoryId",
        );
      });

      it("reverts for a zero metadata hash", async function () {
        const { registry } = await loadFixture(deployFixture);
        await expect(registry.registerFactory(FACTORY_ID, ethers.ZeroHash, PORTUGAL)).to.be.revertedWithCustomError(
          registry,
          "InvalidMetadataHash",
        );
      });

      // Neighbours of 'A' (0x41) and 'Z' (0x5a) in either position, lower case, digits, zero bytes.
      for (const code of ["pt", "Pt", "pT", "P1", "@A", "[A", "A@", "Z[", "0x0000", "0x5000", "0x0054"]) {
        it(`reverts for country ${code}`, async function () {
          const { registry } = await loadFixture(deployFixture);
          const country = code.startsWith("0x") ? code : bytes2(code);
          await expect(registry.registerFactory(FACTORY_ID, PROFILE, country))
            .to.be.revertedWithCustomError(registry, "InvalidCountryCode")
            .withArgs(country);
        });
      }

      it("accepts a country exactly when both bytes are A..Z (randomized)", async function () {
        const { registry } = await loadFixture(deployFixture);
        const isUpper = (b: number) => b >= 0x41 && b <= 0x5a;
        // Half the samples from the letters, half from all bytes, so both outcomes are common.
        const byte = fc.oneof(fc.integer({ min: 0x41, max: 0x5a }), fc.integer({ min: 0, max: 255 }));
        let id = 1000n;
        await fc.assert(
          fc.asyncProperty(byte, byte, async (first, second) => {
            const country = ethers.hexlify(new Uint8Array([first, second]));
            const tx = registry.registerFactory(++id, PROFILE, country);
            if (isUpper(first) && isUpper(second)) {
              await expect(tx).to.emit(registry, "FactoryRegistered").withArgs(id, PROFILE, country);
            } else {
              await expect(tx).to.be.revertedWithCustomError(registry, "InvalidCountryCode").withArgs(country);
            }
          }),
          { numRuns: 80 },
        );
      });
    });
  });

  describe("updateFactoryMetadata", function () {
    const NEW_PROFILE = hashOf("factory profile v2");

    describe("when the caller is not a registrar", function () {
      it("reverts", async function () {
        const { registry, stranger } = await loadFixture(registeredFixture);
        await expect(registry.connect(stranger).updateFactoryMetadata(FACTORY_ID, NEW_PROFILE))
          .to.be.revertedWithCustomError(registry, "AccessControlUnauthorizedAccount")
          .withArgs(stranger.address, REGISTRAR_ROLE);
      });
    });

    describe("when the factory is registered", function () {
      it("replaces the hash and emits FactoryMetadataUpdated, leaving the rest alone", async function () {
        const { registry } = await loadFixture(registeredFixture);
        const before = await registry.factory(FACTORY_ID);
        await expect(registry.updateFactoryMetadata(FACTORY_ID, NEW_PROFILE))
          .to.emit(registry, "FactoryMetadataUpdated")
          .withArgs(FACTORY_ID, PROFILE, NEW_PROFILE);
        const after = await registry.factory(FACTORY_ID);
        expect(after.metadataHash).to.equal(NEW_PROFILE);
        expect([after.country, after.verified, after.certifications, after.registeredAt]).to.deep.equal([
          before.country,
          before.verified,
          before.certifications,
          before.registeredAt,
        ]);
      });

      it("accepts the same hash again (an audited re-anchoring)", async function () {
        const { registry } = await loadFixture(registeredFixture);
        await expect(registry.updateFactoryMetadata(FACTORY_ID, PROFILE))
          .to.emit(registry, "FactoryMetadataUpdated")
          .withArgs(FACTORY_ID, PROFILE, PROFILE);
      });

      it("reverts for a zero hash", async function () {
        const { registry } = await loadFixture(registeredFixture);
        await expect(registry.updateFactoryMetadata(FACTORY_ID, ethers.ZeroHash)).to.be.revertedWithCustomError(
          registry,
          "InvalidMetadataHash",
        );
      });
    });

    describe("when the factory is not registered", function () {
      it("reverts", async function () {
        const { registry } = await loadFixture(registeredFixture);
        await expect(registry.updateFactoryMetadata(FACTORY_ID + 1n, NEW_PROFILE))
          .to.be.revertedWithCustomError(registry, "FactoryNotFound")
          .withArgs(FACTORY_ID + 1n);
      });
    });
  });

  describe("verifyFactory and unverifyFactory", function () {
    describe("when the caller is not a verifier", function () {
      it("reverts, even for the registrar", async function () {
        const { registry, registrar } = await loadFixture(registeredFixture);
        await expect(registry.connect(registrar).verifyFactory(FACTORY_ID))
          .to.be.revertedWithCustomError(registry, "AccessControlUnauthorizedAccount")
          .withArgs(registrar.address, VERIFIER_ROLE);
        await expect(registry.connect(registrar).unverifyFactory(FACTORY_ID))
          .to.be.revertedWithCustomError(registry, "AccessControlUnauthorizedAccount")
          .withArgs(registrar.address, VERIFIER_ROLE);
      });
    });

    describe("when the factory is unverified", function () {
      it("verifies it, naming the verifier", async function () {
        const { registry, verifier } = await loadFixture(registeredFixture);
        await expect(registry.connect(verifier).verifyFactory(FACTORY_ID))
          .to.emit(registry, "FactoryVerified")
          .withArgs(FACTORY_ID, verifier.address);
        expect(await registry.isVerified(FACTORY_ID)).to.equal(true);
        expect((await registry.factory(FACTORY_ID)).verified).to.equal(true);
      });

      it("refuses to unverify it", async function () {
        const { registry, verifier } = await loadFixture(registeredFixture);
        await expect(registry.connect(verifier).unverifyFactory(FACTORY_ID))
          .to.be.revertedWithCustomError(registry, "FactoryNotVerified")
          .withArgs(FACTORY_ID);
      });
    });

    describe("when the factory is verified", function () {
      async function verifiedFixture() {
        const fixture = await registeredFixture();
        await fixture.registry.connect(fixture.verifier).verifyFactory(FACTORY_ID);
        return fixture;
      }

      it("refuses to verify it again", async function () {
        const { registry, verifier } = await loadFixture(verifiedFixture);
        await expect(registry.connect(verifier).verifyFactory(FACTORY_ID))
          .to.be.revertedWithCustomError(registry, "FactoryAlreadyVerified")
          .withArgs(FACTORY_ID);
      });

      it("unverifies it, naming the verifier", async function () {
        const { registry, verifier } = await loadFixture(verifiedFixture);
        await expect(registry.connect(verifier).unverifyFactory(FACTORY_ID))
          .to.emit(registry, "FactoryUnverified")
          .withArgs(FACTORY_ID, verifier.address);
        expect(await registry.isVerified(FACTORY_ID)).to.equal(false);
      });
    });

    describe("when the factory is not registered", function () {
      it("reverts", async function () {
        const { registry, verifier } = await loadFixture(registeredFixture);
        for (const call of [registry.connect(verifier).verifyFactory, registry.connect(verifier).unverifyFactory]) {
          await expect(call(FACTORY_ID + 1n))
            .to.be.revertedWithCustomError(registry, "FactoryNotFound")
            .withArgs(FACTORY_ID + 1n);
        }
      });
    });
  });

  describe("setCertifications", function () {
    const GOTS_AND_BLUESIGN = (1 << Certification.GOTS) | (1 << Certification.BLUESIGN);

    describe("when the caller is not a registrar", function () {
      it("reverts", async function () {
        const { registry, verifier } = await loadFixture(registeredFixture);
        await expect(registry.connect(verifier).setCertifications(FACTORY_ID, GOTS_AND_BLUESIGN))
          .to.be.revertedWithCustomError(registry, "AccessControlUnauthorizedAccount")
          .withArgs(verifier.address, REGISTRAR_ROLE);
      });
    });

    describe("when the factory is registered", function () {
      it("replaces the mask and emits CertificationsUpdated", async function () {
        const { registry } = await loadFixture(registeredFixture);
        await expect(registry.setCertifications(FACTORY_ID, GOTS_AND_BLUESIGN))
          .to.emit(registry, "CertificationsUpdated")
          .withArgs(FACTORY_ID, 0, GOTS_AND_BLUESIGN);
        expect(await registry.certificationsOf(FACTORY_ID)).to.equal(BigInt(GOTS_AND_BLUESIGN));

        await expect(registry.setCertifications(FACTORY_ID, ALL_CERTIFICATIONS))
          .to.emit(registry, "CertificationsUpdated")
          .withArgs(FACTORY_ID, GOTS_AND_BLUESIGN, ALL_CERTIFICATIONS);
        await expect(registry.setCertifications(FACTORY_ID, 0))
          .to.emit(registry, "CertificationsUpdated")
          .withArgs(FACTORY_ID, ALL_CERTIFICATIONS, 0);
        expect((await registry.factory(FACTORY_ID)).certifications).to.equal(0n);
      });

      it("leaves verification alone", async function () {
        const { registry, verifier } = await loadFixture(registeredFixture);
        await registry.connect(verifier).verifyFactory(FACTORY_ID);
        await registry.setCertifications(FACTORY_ID, ALL_CERTIFICATIONS);
        expect(await registry.isVerified(FACTORY_ID)).to.equal(true);
      });

      for (const mask of [1 << 7, 0x80 | ALL_CERTIFICATIONS, 0xffffffff]) {
        it(`reverts for unknown bits in ${ethers.toBeHex(mask)}`, async function () {
          const { registry } = await loadFixture(registeredFixture);
          await expect(registry.setCertifications(FACTORY_ID, mask))
            .to.be.revertedWithCustomError(registry, "UnknownCertifications")
            .withArgs(mask);
        });
      }
    });

    describe("when the factory is not registered", function () {
      it("reverts", async function () {
        const { registry } = await loadFixture(registeredFixture);
        await expect(registry.setCertifications(FACTORY_ID + 1n, GOTS_AND_BLUESIGN))
          .to.be.revertedWithCustomError(registry, "FactoryNotFound")
          .withArgs(FACTORY_ID + 1n);
      });
    });
  });

  describe("views of an unknown factory", function () {
    it("say it is neither registered nor verified", async function () {
      const { registry } = await loadFixture(registeredFixture);
      expect(await registry.isRegistered(FACTORY_ID + 1n)).to.equal(false);
      expect(await registry.isVerified(FACTORY_ID + 1n)).to.equal(false);
    });

    it("revert FactoryNotFound for its record and certifications", async function () {
      const { registry } = await loadFixture(registeredFixture);
      for (const view of [registry.factory, registry.certificationsOf]) {
        await expect(view(FACTORY_ID + 1n))
          .to.be.revertedWithCustomError(registry, "FactoryNotFound")
          .withArgs(FACTORY_ID + 1n);
      }
    });
  });

  describe("access control", function () {
    shouldBehaveLikeDefaultAdminRules(async () => {
      const { registry, admin, newAdmin, stranger } = await loadFixture(registeredFixture);
      return {
        contract: registry,
        admin,
        newAdmin,
        stranger,
        role: VERIFIER_ROLE,
        useRole: (as) => registry.connect(as).verifyFactory(FACTORY_ID),
        // Only the admin may grant roles: a harmless grant shows who is admin.
        useAdmin: (as) => registry.connect(as).grantRole(VERIFIER_ROLE, as.address),
      };
    });
  });
});
