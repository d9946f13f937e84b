// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {AccessControlDefaultAdminRules} from
    "@openzeppelin/contracts/access/extensions/AccessControlDefaultAdminRules.sol";
import {IFactoryRegistry} from "./IFactoryRegistry.sol";

/// @title Registry of factories, their verification and their certifications
/// @notice Registration and profile updates are the registrar's (the service's shared wallet); verification is a
/// separate role so that it can be given to an auditor. Every change is an event for the indexer.
contract FactoryRegistry is AccessControlDefaultAdminRules, IFactoryRegistry {
    /// @notice Registers factories and maintains their profile hash and certifications.
    bytes32 public constant REGISTRAR_ROLE = keccak256("REGISTRAR_ROLE");
    /// @notice Verifies factories and withdraws verification.
    bytes32 public constant VERIFIER_ROLE = keccak256("VERIFIER_ROLE");

    /// @inheritdoc IFactoryRegistry
    uint8 public constant CERTIFICATION_COUNT = 7;

    /// @dev Bits 0..CERTIFICATION_COUNT-1.
    uint32 private constant _KNOWN_CERTIFICATIONS = uint32((1 << CERTIFICATION_COUNT) - 1);

    /// @dev Two slots per factory: the hash, then country, verified, certifications and registeredAt packed.
    /// `registeredAt` is non-zero exactly when the factory is registered, and shares its slot with the flags, so
    /// `isVerified` and the existence checks read one slot.
    mapping(uint64 factoryId => Factory) private _factories;
    uint256 private _factoryCount;

    /// @param admin Holder of DEFAULT_ADMIN_ROLE (role management); changed only in two steps.
    /// @param adminDelay Seconds between starting and accepting a transfer of the admin role.
    /// @param registrar Gets REGISTRAR_ROLE (the shared wallet).
    /// @param verifier Gets VERIFIER_ROLE.
    constructor(address admin, uint48 adminDelay, address registrar, address verifier)
        AccessControlDefaultAdminRules(adminDelay, admin)
    {
        _grantRole(REGISTRAR_ROLE, registrar);
        _grantRole(VERIFIER_ROLE, verifier);
    }

    /// @inheritdoc IFactoryRegistry
    function registerFactory(uint64 factoryId, bytes32 metadataHash, bytes2 country)
        external
        onlyRole(REGISTRAR_ROLE)
    {
        if (factoryId == 0) revert InvalidFactoryId();
        if (metadataHash == 0) revert InvalidMetadataHash();
        if (!_isCountryCode(country)) revert InvalidCountryCode(country);
        Factory storage f = _factories[factoryId];
        if (f.registeredAt != 0) revert FactoryAlreadyRegistered(factoryId);

        f.metadataHash = metadataHash;
        f.country = country;
        f.registeredAt = uint64(block.timestamp);
        ++_factoryCount;
        emit FactoryRegistered(factoryId, metadataHash, country);
    }

    /// @inheritdoc IFactoryRegistry
    function updateFactoryMetadata(uint64 factoryId, bytes32 metadataHash) external onlyRole(REGISTRAR_ROLE) {
        if (metadataHash == 0) revert InvalidMetadataHash();
        Factory storage f = _requireFactory(factoryId);

        bytes32 previousHash = f.metadataHash;
        f.metadataHash = metadataHash;
        emit FactoryMetadataUpdated(factoryId, previousHash, metadataHash);
    }

    /// @inheritdoc IFactoryRegistry
    function verifyFactory(uint64 factoryId) external onlyRole(VERIFIER_ROLE) {
        Factory storage f = _requireFactory(factoryId);
        if (f.verified) revert FactoryAlreadyVerified(factoryId);

        f.verified = true;
        emit FactoryVerified(factoryId, _msgSender());
    }

    /// @inheritdoc IFactoryRegistry
    function unverifyFactory(uint64 factoryId) external onlyRole(VERIFIER_ROLE) {
        Factory storage f = _requireFactory(factoryId);
        if (!f.verified) revert FactoryNotVerified(factoryId);

        f.verified = false;
        emit FactoryUnverified(factoryId, _msgSender());
    }

    /// @inheritdoc IFactoryRegistry
    function setCertifications(uint64 factoryId, uint32 mask) external onlyRole(REGISTRAR_ROLE) {
        if (mask & ~_KNOWN_CERTIFICATIONS != 0) revert UnknownCertifications(mask);
        Factory storage f = _requireFactory(factoryId);

        uint32 previousMask = f.certifications;
        f.certifications = mask;
        emit CertificationsUpdated(factoryId, previousMask, mask);
    }

    /// @inheritdoc IFactoryRegistry
    function factory(uint64 factoryId) external view returns (Factory memory) {
        return _requireFactory(factoryId);
    }

    /// @inheritdoc IFactoryRegistry
    function isRegistered(uint64 factoryId) external view returns (bool) {
        return _factories[factoryId].registeredAt != 0;
    }

    /// @inheritdoc IFactoryRegistry
    function isVerified(uint64 factoryId) external view returns (bool) {
        // An unregistered factory has `verified` false, so no existence check is needed.
        return _factories[factoryId].verified;
    }

    /// @inheritdoc IFactoryRegistry
    function certificationsOf(uint64 factoryId) external view returns (uint32) {
        return _requireFactory(factoryId).certifications;
    }

    /// @inheritdoc IFactoryRegistry
    function factoryCount() external view returns (uint256) {
        return _factoryCount;
    }

    /// @notice AccessControl (with default admin rules), ERC-165 and IFactoryRegistry.
    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return interfaceId == type(IFactoryRegistry).interfaceId || super.supportsInterface(interfaceId);
    }

    /// @dev Reverts with `FactoryNotFound` unless the factory is registered.
    function _requireFactory(uint64 factoryId) private view returns (Factory storage f) {
        f = _factories[factoryId];
        if (f.registeredAt == 0) revert FactoryNotFound(factoryId);
    }

    /// @dev ISO 3166-1 alpha-2 shape: two upper-case ASCII letters. Whether the code is assigned is not checked.
    function _isCountryCode(bytes2 country) private pure returns (bool) {
        return _isUpperAscii(country[0]) && _isUpperAscii(country[1]);
    }

    function _isUpperAscii(bytes1 c) private pure returns (bool) {
        return c >= "A" && c <= "Z";
    }
}
