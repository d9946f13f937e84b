// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

/// @title Registry of factories whose on-chain activity builds their reputation
/// @notice A factory is registered under a numeric id with the keccak256 of its off-chain profile and its ISO 3166-1
/// alpha-2 country code. Verification and certifications are separate, audited steps, each an event.
interface IFactoryRegistry {
    /// @notice Certification bits of `certificationsOf`: bit i set means the factory holds certification i.
    /// GOTS = 0, OEKO_TEX = 1, ISO9001 = 2, GRS = 3, BCI = 4, SA8000 = 5, BLUESIGN = 6.
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

    function registerFactory(uint64 factoryId, bytes32 metadataHash, bytes2 country) external;

    function updateFactoryMetadata(uint64 factoryId, bytes32 metadataHash) external;

    function verifyFactory(uint64 factoryId) external;

    function unverifyFactory(uint64 factoryId) external;

    function setCertifications(uint64 factoryId, uint32 mask) external;

    function factory(uint64 factoryId) external view returns (Factory memory);

    function isRegistered(uint64 factoryId) external view returns (bool);

    function isVerified(uint64 factoryId) external view returns (bool);

    function certificationsOf(uint64 factoryId) external view returns (uint32);

    function factoryCount() external view returns (uint256);
}
