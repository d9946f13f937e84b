// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// @dev Test/benchmark only: a stock OpenZeppelin ERC-721, the gas baseline `scripts/bench/gas.ts` compares against.
contract PlainERC721 is ERC721 {
    constructor() ERC721("Plain", "PLAIN") {}

    function mint(address to, uint256 tokenId) external {
        _safeMint(to, tokenId);
    }
}
