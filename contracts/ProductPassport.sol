// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Utils} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Utils.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {AccessControlDefaultAdminRules} from
    "@openzeppelin/contracts/access/extensions/AccessControlDefaultAdminRules.sol";
import {IProductPassport} from "./IProductPassport.sol";

/// @title Digital Product Passport token (ERC-721 + ERC-4906)
/// @notice One token per physical product, minted by the service's shared wallet and anchored by a content hash.
/// @dev Gas design: a passport costs one fresh storage slot, `_dataHashes[tokenId]`, which is non-zero exactly when
/// the passport exists. Ownership is lazy: passports held by the immutable `custodian` (the shared wallet, which
/// mints almost every passport to itself) store no owner at all; an owner slot is written only while another
/// address holds the passport. To do that, this contract replaces OpenZeppelin's ownership and balance storage
/// (`_ownerOf`, `balanceOf`, `_update`, `_increaseBalance` are overridden; OZ's own `_owners`/`_balances` are never
/// written) and keeps the rest of OZ's ERC-721 (approvals, `transferFrom`, `safeTransferFrom`, `tokenURI`).
/// Passports are never burnt. Storage layout: docs/contracts.md (`npx tsx scripts/storage-layout.ts` prints it).
contract ProductPassport is ERC721, AccessControlDefaultAdminRules, IProductPassport {
    /// @notice Role of the shared wallet: mints and maintains passports.
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @inheritdoc IProductPassport
    uint256 public constant MAX_BATCH = 200;

    /// @inheritdoc IProductPassport
    uint8 public constant MAX_STAGE = 12;

    /// @inheritdoc IProductPassport
    address public immutable custodian;

    /// @dev ERC-165 id of ERC-4906 (metadata update events), fixed by the EIP.
    bytes4 private constant _ERC4906_INTERFACE_ID = 0x49064906;

    /// @dev Anchored content hash; non-zero if and only if the passport exists.
    mapping(uint256 tokenId => bytes32) private _dataHashes;
    /// @dev Holder of a passport that is not with the custodian; zero while the custodian holds it.
    mapping(uint256 tokenId => address) private _nonCustodialOwners;
    /// @dev Passport count per holder, custodian included: what `balanceOf` returns. Named apart from OZ's private
    /// `_balances`, which this contract never writes, so that no reader or tool takes one for the other.
    mapping(address holder => uint256) private _passportBalances;
    /// @dev Written only when the status changes, so an Active passport costs nothing here.
    mapping(uint256 tokenId => Status) private _statuses;
    mapping(uint256 tokenId => bytes32) private _tagOfPassport;
    mapping(bytes32 tagHash => uint256) private _passportOfTag;

    string private _baseTokenURI;

    /// @param admin Holder of DEFAULT_ADMIN_ROLE (base URI, role management); changed only in two steps.
    /// @param adminDelay Seconds between starting and accepting a transfer of the admin role.
    /// @param minter The shared wallet: gets MINTER_ROLE and becomes the immutable `custodian`.
    /// @param baseURI_ Base of every `tokenURI` (the token id in decimal is appended).
    constructor(address admin, uint48 adminDelay, address minter, string memory baseURI_)
        ERC721("Passport Registry Product Passport", "DPP")
        AccessControlDefaultAdminRules(adminDelay, admin)
    {
        // The custodian owns every passport without an owner slot: zero would make those passports ownerless.
        if (minter == address(0)) revert ERC721InvalidOwner(address(0));
        custodian = minter;
        _grantRole(MINTER_ROLE, minter);
        _baseTokenURI = baseURI_;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Minting
    // ---------------------------------------------------------------------------------------------------------

    /// @inheritdoc IProductPassport
    function mint(address to, uint256 tokenId, uint64 factoryId, bytes32 dataHash)
        external
        onlyRole(MINTER_ROLE)
    {
        _requireMintable(to);
        _increaseBalance(to, 1);
        emit PassportsMinted(factoryId, 1);
        _mintPassport(to, to == custodian, tokenId, dataHash);
        ERC721Utils.checkOnERC721Received(_msgSender(), address(0), to, tokenId, "");
    }

    /// @inheritdoc IProductPassport
    function mintBatch(address to, uint64 factoryId, uint256[] calldata tokenIds, bytes32[] calldata dataHashes)
        external
        onlyRole(MINTER_ROLE)
    {
        uint256 size = tokenIds.length;
        if (size != dataHashes.length) revert BatchLengthMismatch(size, dataHashes.length);
        if (size == 0 || size > MAX_BATCH) revert InvalidBatchSize(size, MAX_BATCH);
        _requireMintable(to);

        // One balance write for the whole batch is most of what a batch saves besides the transaction cost.
        _increaseBalance(to, uint128(size));
        emit PassportsMinted(factoryId, size);
        bool toCustodian = to == custodian;
        for (uint256 i; i < size; ++i) {
            _mintPassport(to, toCustodian, tokenIds[i], dataHashes[i]);
        }
        // Asked once: a receiver that accepts the first passport of a collection accepts the collection.
        ERC721Utils.checkOnERC721Received(_msgSender(), address(0), to, tokenIds[0], "");
    }

    /// @dev Checks shared by `mint` and `mintBatch` that concern the whole call rather than one passport.
    /// A factory id of zero is allowed: it records that the brand has not declared the manufacturer yet.
    function _requireMintable(address to) private pure {
        if (to == address(0)) revert ERC721InvalidReceiver(address(0));
    }

    /// @dev Creates one passport. The caller has already counted it in `to`'s balance; writing the balance once per
    /// call is what makes a batch cheap. A duplicate inside a batch is caught because the earlier copy is stored.
    function _mintPassport(address to, bool toCustodian, uint256 tokenId, bytes32 dataHash) private {
        if (tokenId == 0) revert InvalidTokenId();
        if (dataHash == 0) revert InvalidDataHash();
        if (_dataHashes[tokenId] != 0) revert PassportAlreadyMinted(tokenId);

        _dataHashes[tokenId] = dataHash;
        if (!toCustodian) _nonCustodialOwners[tokenId] = to;
        emit Transfer(address(0), to, tokenId);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Passport maintenance
    // ---------------------------------------------------------------------------------------------------------

    /// @inheritdoc IProductPassport
    function updateDataHash(uint256 tokenId, bytes32 newHash) external onlyRole(MINTER_ROLE) {
        if (newHash == 0) revert InvalidDataHash();
        bytes32 previousHash = _dataHashes[tokenId];
        if (previousHash == 0) revert PassportNotFound(tokenId);
        if (previousHash == newHash) revert DataHashUnchanged(tokenId);

        _dataHashes[tokenId] = newHash;
        emit DataHashUpdated(tokenId, previousHash, newHash);
        emit MetadataUpdate(tokenId);
    }

    /// @inheritdoc IProductPassport
    function setStatus(uint256 tokenId, Status newStatus) external onlyRole(MINTER_ROLE) {
        _requirePassport(tokenId);
        Status previousStatus = _statuses[tokenId];
        if (!_isAllowedTransition(previousStatus, newStatus)) {
            revert InvalidStatusTransition(tokenId, previousStatus, newStatus);
        }

        _statuses[tokenId] = newStatus;
        emit PassportStatusChanged(tokenId, previousStatus, newStatus);
    }

    /// @dev Lost and Stolen can be set from any other status; Recovered only ends Lost or Stolen; nothing goes back
    /// to Active, so the history "this product was once reported" stays visible in its status.
    function _isAllowedTransition(Status from, Status to) private pure returns (bool) {
        if (to == Status.Lost || to == Status.Stolen) return from != to;
        if (to == Status.Recovered) return from == Status.Lost || from == Status.Stolen;
        return false;
    }

    /// @inheritdoc IProductPassport
    function assignTag(uint256 tokenId, bytes32 tagHash) external onlyRole(MINTER_ROLE) {
        if (tagHash == 0) revert InvalidTagHash();
        _requirePassport(tokenId);
        // A tag identifies one product: re-assigning it, even to the same passport, is a caller error worth seeing.
        uint256 holder = _passportOfTag[tagHash];
        if (holder != 0) revert TagAlreadyAssigned(tagHash, holder);

        bytes32 previousTagHash = _tagOfPassport[tokenId];
        if (previousTagHash != 0) delete _passportOfTag[previousTagHash];
        _tagOfPassport[tokenId] = tagHash;
        _passportOfTag[tagHash] = tokenId;
        emit TagAssigned(tokenId, tagHash, previousTagHash);
    }

    /// @inheritdoc IProductPassport
    function recordSupplyChainEvent(uint256 tokenId, uint64 factoryId, uint8 stage, bytes32 detailsHash)
        external
        onlyRole(MINTER_ROLE)
    {
        if (factoryId == 0) revert InvalidFactoryId();
        if (stage == 0 || stage > MAX_STAGE) revert InvalidStage(stage);
        _requirePassport(tokenId);
        emit SupplyChainEventRecorded(tokenId, factoryId, stage, detailsHash);
    }

    /// @inheritdoc IProductPassport
    function setBaseURI(string calldata baseURI) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _baseTokenURI = baseURI;
        emit BaseURIUpdated(baseURI);
        emit BatchMetadataUpdate(0, type(uint256).max);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Views
    // ---------------------------------------------------------------------------------------------------------

    /// @inheritdoc IProductPassport
    function dataHashOf(uint256 tokenId) external view returns (bytes32) {
        return _requirePassport(tokenId);
    }

    /// @inheritdoc IProductPassport
    function statusOf(uint256 tokenId) external view returns (Status) {
        _requirePassport(tokenId);
        return _statuses[tokenId];
    }

    /// @inheritdoc IProductPassport
    function tagOf(uint256 tokenId) external view returns (bytes32) {
        _requirePassport(tokenId);
        return _tagOfPassport[tokenId];
    }

    /// @inheritdoc IProductPassport
    function passportOfTag(bytes32 tagHash) external view returns (uint256) {
        return _passportOfTag[tagHash];
    }

    /// @inheritdoc IProductPassport
    function exists(uint256 tokenId) external view returns (bool) {
        return _dataHashes[tokenId] != 0;
    }

    /// @inheritdoc IProductPassport
    function tokenIdOf(string calldata uid) external pure returns (uint256) {
        return uint256(keccak256(bytes(uid)));
    }

    /// @notice ERC-721, ERC-721 Metadata, ERC-4906, AccessControl (with default admin rules) and IProductPassport.
    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(ERC721, AccessControlDefaultAdminRules, IERC165)
        returns (bool)
    {
        return interfaceId == _ERC4906_INTERFACE_ID || interfaceId == type(IProductPassport).interfaceId
            || ERC721.supportsInterface(interfaceId) || AccessControlDefaultAdminRules.supportsInterface(interfaceId);
    }

    // ---------------------------------------------------------------------------------------------------------
    // ERC-721 storage overrides (lazy custodial ownership)
    // ---------------------------------------------------------------------------------------------------------

    /// @inheritdoc IERC721
    function balanceOf(address owner) public view override(ERC721, IERC721) returns (uint256) {
        if (owner == address(0)) revert ERC721InvalidOwner(address(0));
        return _passportBalances[owner];
    }

    /// @dev An existing passport without an owner slot is with the custodian.
    function _ownerOf(uint256 tokenId) internal view override returns (address) {
        address owner = _nonCustodialOwners[tokenId];
        if (owner == address(0) && _dataHashes[tokenId] != 0) owner = custodian;
        return owner;
    }

    /// @dev `_passportBalances` replaces OZ's private `_balances`, so the balance hook must write ours.
    function _increaseBalance(address account, uint128 value) internal override {
        unchecked {
            _passportBalances[account] += value;
        }
    }

    /// @dev Moves a passport; replaces OZ's `_update` whole because ownership and balances live in this contract.
    /// It keeps OZ's rules (authorization, approval clearing, the Transfer event, IERC6093 errors) and adds one:
    /// a Lost or Stolen passport cannot move. Minting goes through `_mintPassport` (it needs a data hash) and
    /// passports are never burnt, so OZ's internal `_mint`/`_burn` revert here.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        address from = _ownerOf(tokenId);
        if (auth != address(0)) _checkAuthorized(from, auth, tokenId);
        if (from == address(0)) revert ERC721NonexistentToken(tokenId);
        if (to == address(0)) revert ERC721InvalidReceiver(address(0));
        Status status = _statuses[tokenId];
        if (status == Status.Lost || status == Status.Stolen) revert PassportFlagged(tokenId, status);

        // Clear the single-token approval without an Approval event, as OZ does on every transfer.
        _approve(address(0), tokenId, address(0), false);
        unchecked {
            // `from` holds the token, so its balance is at least one; no balance can reach 2**256.
            _passportBalances[from] -= 1;
            _passportBalances[to] += 1;
        }
        if (to == custodian) {
            delete _nonCustodialOwners[tokenId];
        } else {
            _nonCustodialOwners[tokenId] = to;
        }
        emit Transfer(from, to, tokenId);
        return from;
    }

    /// @dev See {ERC721-_baseURI}: `tokenURI` is this base followed by the token id in decimal.
    function _baseURI() internal view override returns (string memory) {
        return _baseTokenURI;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Internal helpers
    // ---------------------------------------------------------------------------------------------------------

    /// @dev Reverts with `PassportNotFound` unless the passport exists; returns its data hash.
    function _requirePassport(uint256 tokenId) private view returns (bytes32 dataHash) {
        dataHash = _dataHashes[tokenId];
        if (dataHash == 0) revert PassportNotFound(tokenId);
    }
}
