// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

/// @dev Benchmark only, never deployed: the cheapest anchor there is, a log and no state, so `scripts/bench/gas.ts`
/// can show what model and batch passports would save by not being ERC-721 tokens. Guarded by nothing on purpose.
contract EventAnchorProbe {
    event Anchored(bytes32 indexed id, bytes32 dataHash);

    function anchor(bytes32 id, bytes32 dataHash) external {
        emit Anchored(id, dataHash);
    }

    function anchorBatch(bytes32[] calldata ids, bytes32[] calldata dataHashes) external {
        for (uint256 i; i < ids.length; ++i) {
            emit Anchored(ids[i], dataHashes[i]);
        }
    }
}
