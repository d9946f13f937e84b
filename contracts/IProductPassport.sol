// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC4906} from "@openzeppelin/contracts/interfaces/IERC4906.sol";

/// @title Digital Product Passport token
/// @notice One ERC-721 token per physical product. The token id is derived from the product UID off chain:
/// `tokenId = uint256(keccak256(bytes(uid)))` with the UID in canonical upper case, so anyone holding a tag can
/// find its token without asking the service. The passport's content is anchored as `dataHash`, the keccak256 of
/// its RFC 8785 canonical JSON; no personal data goes on chain.
interface IProductPassport is IERC721, IERC4906 {
    /// @notice Lifecycle flag of a passport. A passport marked Lost or Stolen cannot be transferred.
    enum Status {
        Active,
        Lost,
        Stolen,
        Recovered
    }

    /// @notice `count` passports were minted for products made by `factoryId` (0: the manufacturer is not declared
    /// yet), by one `mint` or `mintBatch` call.
    /// @dev Emitted once per call, before the passports' logs: their token ids are in the `count` ERC-721 `Transfer`
    /// logs from the zero address that follow it, in order; each passport's anchored hash is in the call's
    /// `dataHash` / `dataHashes` argument (same order) and in `dataHashOf`. One log per call instead of one per
    /// passport is what brings a batched passport under half the gas of an OpenZeppelin `_safeMint`.
    event PassportsMinted(uint64 indexed factoryId, uint256 count);

    /// @notice The anchored content hash of a passport changed (emitted together with ERC-4906 `MetadataUpdate`).
    event DataHashUpdated(uint256 indexed tokenId, bytes32 previousHash, bytes32 newHash);

    /// @notice A passport was marked lost, stolen or recovered.
    event PassportStatusChanged(uint256 indexed tokenId, Status previousStatus, Status newStatus);

    /// @notice An NFC tag, identified by the keccak256 of its tag UID, was assigned to a passport.
    /// @dev `previousTagHash` is zero on the first assignment and the replaced tag otherwise.
    event TagAssigned(uint256 indexed tokenId, bytes32 indexed tagHash, bytes32 previousTagHash);

    /// @notice A supply-chain step (`stage`) happened at `factoryId`; its details hash to `detailsHash`.
    /// @dev Stage codes 1..MAX_STAGE are named in `MAX_STAGE`'s `@custom:stages`. Zero is never a stage.
    event SupplyChainEventRecorded(
        uint256 indexed tokenId,
        uint64 indexed factoryId,
        uint8 indexed stage,
        bytes32 detailsHash
    );

    /// @notice The base of every `tokenURI` changed (emitted together with ERC-4906 `BatchMetadataUpdate`).
    event BaseURIUpdated(string baseURI);

    /// @notice A passport for `tokenId` exists already; a UID can be minted only once.
    error PassportAlreadyMinted(uint256 tokenId);
    /// @notice No passport exists for `tokenId`.
    error PassportNotFound(uint256 tokenId);
    /// @notice A data hash must not be zero.
    error InvalidDataHash();
    /// @notice A supply-chain event needs a real factory: its id must not be zero.
    error InvalidFactoryId();
    /// @notice The new data hash equals the anchored one.
    error DataHashUnchanged(uint256 tokenId);
    /// @notice A batch needs as many data hashes as token ids, and at least one of each.
    error BatchLengthMismatch(uint256 tokenIds, uint256 dataHashes);
    /// @notice A batch is empty or larger than `max`.
    error InvalidBatchSize(uint256 size, uint256 max);
    /// @notice The status change from `from` to `to` is not allowed.
    error InvalidStatusTransition(uint256 tokenId, Status from, Status to);
    /// @notice The passport is marked lost or stolen and cannot move.
    error PassportFlagged(uint256 tokenId, Status status);
    /// @notice A tag hash must not be zero.
    error InvalidTagHash();
    /// @notice The tag is assigned to passport `tokenId` already (also raised when that is the same passport).
    error TagAlreadyAssigned(bytes32 tagHash, uint256 tokenId);
    /// @notice The supply-chain stage code is outside 1..MAX_STAGE.
    error InvalidStage(uint8 stage);
    /// @notice Token id zero is reserved: `passportOfTag` uses it for "no passport" (no UID hashes to it in practice).
    error InvalidTokenId();

    /// @notice Mints one passport to `to`. Reverts with `PassportAlreadyMinted` if the UID was minted before.
    /// @dev Like ERC-721 `_safeMint`: a contract recipient must accept it through `onERC721Received`.
    function mint(address to, uint256 tokenId, uint64 factoryId, bytes32 dataHash) external;

    /// @notice Mints a collection of passports made by one factory to `to`, in one transaction.
    /// @dev 1..MAX_BATCH passports; a duplicate anywhere (minted before, or twice in the batch) reverts the batch.
    /// A contract recipient is asked once, through `onERC721Received` for the first token id of the batch.
    function mintBatch(address to, uint64 factoryId, uint256[] calldata tokenIds, bytes32[] calldata dataHashes)
        external;

    /// @notice Re-anchors a passport whose content changed.
    function updateDataHash(uint256 tokenId, bytes32 newHash) external;

    /// @notice Marks a passport lost, stolen or recovered.
    /// @dev Allowed: Active -> Lost|Stolen, Lost -> Stolen|Recovered, Stolen -> Lost|Recovered,
    /// Recovered -> Lost|Stolen. Nothing returns to Active and nothing stays the same (`InvalidStatusTransition`).
    function setStatus(uint256 tokenId, Status newStatus) external;

    /// @notice Assigns (or replaces) the NFC tag of a passport; a replaced tag becomes free for another passport.
    /// @dev A tag already on any passport, this one included, reverts `TagAlreadyAssigned` with that passport's id.
    function assignTag(uint256 tokenId, bytes32 tagHash) external;

    /// @notice Records a supply-chain step for a passport (an event only: nothing is stored).
    function recordSupplyChainEvent(uint256 tokenId, uint64 factoryId, uint8 stage, bytes32 detailsHash) external;

    /// @notice Sets the base of `tokenURI`; the service serves ERC-721 metadata JSON under it.
    function setBaseURI(string calldata baseURI) external;

    /// @notice The anchored content hash of a passport. Reverts with `PassportNotFound` for an unknown token id
    /// (as do `statusOf` and `tagOf`).
    function dataHashOf(uint256 tokenId) external view returns (bytes32);

    /// @notice The lifecycle status of a passport.
    function statusOf(uint256 tokenId) external view returns (Status);

    /// @notice The hash of the NFC tag assigned to a passport, or zero.
    function tagOf(uint256 tokenId) external view returns (bytes32);

    /// @notice The passport a tag is assigned to, or zero.
    function passportOfTag(bytes32 tagHash) external view returns (uint256);

    /// @notice Whether a passport exists for `tokenId`.
    function exists(uint256 tokenId) external view returns (bool);

    /// @notice Computes the token id of a canonical (upper-case) product UID.
    function tokenIdOf(string calldata uid) external pure returns (uint256);

    /// @notice The shared service wallet that holds passports until they are handed over; fixed at deployment.
    function custodian() external view returns (address);

    /// @notice The largest number of passports one `mintBatch` can mint.
    function MAX_BATCH() external view returns (uint256);

    /// @notice The highest supply-chain stage code (see `SupplyChainEventRecorded`).
    /// @dev The list below is the single source of the stage names: `npm run build` generates the service's
    /// `SUPPLY_CHAIN_STAGES` from it and fails unless its codes run 1..MAX_STAGE. Append only; a code never changes.
    /// @custom:stages 1 fibre_sourced, 2 spun, 3 woven_or_knitted, 4 dyed_or_printed, 5 cut, 6 sewn, 7 finished,
    /// 8 quality_checked, 9 packed, 10 shipped, 11 received, 12 retail_ready
    function MAX_STAGE() external view returns (uint8);
}
