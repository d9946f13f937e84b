// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

/// @title Registry of factories whose on-chain activity builds their reputation
/// @notice A factory is registered under a numeric id with the keccak256 of its off-chain profile and its ISO 3166-1
/// alpha-2 country code. Verification and certifications are separate, audited steps, each an event.
interface IFactoryRegistry {
    /// @notice Certification bits of `certificationsOf`: bit i set means the factory holds certification i; the
    /// bits are named in `CERTIFICATION_COUNT`'s `@custom:certifications`.
    struct Factory {
        bytes32 metadataHash;
        bytes2 country;
        bool verified;
        uint32 certifications;
        uint64 registeredAt;
    }

    /// @notice A factory was registered.
    event FactoryRegistered(uint64 indexed factoryId, bytes32 metadataHash, bytes2 country);
    /// @notice The profile hash of a factory changed.
    event FactoryMetadataUpdated(uint64 indexed factoryId, bytes32 previousHash, bytes32 newHash);
    /// @notice A verifier verified a factory.
    event FactoryVerified(uint64 indexed factoryId, address indexed verifier);
    /// @notice A verifier withdrew the verification of a factory.
    event FactoryUnverified(uint64 indexed factoryId, address indexed verifier);
    /// @notice The certification set of a factory changed (bit masks, see `Factory`).
    event CertificationsUpdated(uint64 indexed factoryId, uint32 previousMask, uint32 newMask);

    /// @notice A factory id must not be zero.
    error InvalidFactoryId();
    /// @notice The factory id is taken.
    error FactoryAlreadyRegistered(uint64 factoryId);
    /// @notice No factory is registered under the id.
    error FactoryNotFound(uint64 factoryId);
    /// @notice The country code is not two upper-case ASCII letters.
    error InvalidCountryCode(bytes2 country);
    /// @notice A metadata hash must not be zero.
    error InvalidMetadataHash();
    /// @notice The factory is verified already.
    error FactoryAlreadyVerified(uint64 factoryId);
    /// @notice The factory is not verified.
    error FactoryNotVerified(uint64 factoryId);
    /// @notice The mask has bits beyond the known certifications.
    error UnknownCertifications(uint32 mask);

    /// @notice Registers a factory, unverified and without certifications, at the current block time.
    function registerFactory(uint64 factoryId, bytes32 metadataHash, bytes2 country) external;

    /// @notice Replaces the profile hash of a registered factory (re-anchoring the same hash is allowed).
    function updateFactoryMetadata(uint64 factoryId, bytes32 metadataHash) external;

    /// @notice Marks a registered factory verified; `msg.sender` is recorded in the event as the verifier.
    function verifyFactory(uint64 factoryId) external;

    /// @notice Withdraws the verification of a factory.
    function unverifyFactory(uint64 factoryId) external;

    /// @notice Replaces the certification set of a registered factory with `mask` (bits 0..CERTIFICATION_COUNT-1).
    function setCertifications(uint64 factoryId, uint32 mask) external;

    /// @notice The stored record of a factory. Reverts with `FactoryNotFound` for an unknown id.
    function factory(uint64 factoryId) external view returns (Factory memory);

    /// @notice Whether a factory is registered under the id.
    function isRegistered(uint64 factoryId) external view returns (bool);

    /// @notice Whether the factory is registered and verified (false for an unknown id).
    function isVerified(uint64 factoryId) external view returns (bool);

    /// @notice The certification mask of a factory. Reverts with `FactoryNotFound` for an unknown id.
    function certificationsOf(uint64 factoryId) external view returns (uint32);

    /// @notice How many factories were registered.
    function factoryCount() external view returns (uint256);

    /// @notice How many certification bits are defined (see `Factory`).
    /// @dev The list below (bit, code) is the single source of the certification codes: `npm run build` generates the
    /// service's `CERTIFICATION_CODES` from it and fails unless its bits run 0..CERTIFICATION_COUNT-1. Append only.
    /// @custom:certifications 0 GOTS, 1 OEKO-TEX, 2 ISO9001, 3 GRS, 4 BCI, 5 SA8000, 6 bluesign
    function CERTIFICATION_COUNT() external view returns (uint8);
}
