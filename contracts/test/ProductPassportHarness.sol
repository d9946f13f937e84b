// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {ProductPassport} from "../ProductPassport.sol";

/// @dev Test only: exposes OpenZeppelin's internal `_mint` and `_burn`, which ProductPassport does not use, to
/// show that its `_update` override refuses both (a passport needs a data hash and is never burnt).
contract ProductPassportHarness is ProductPassport {
    constructor(address admin, uint48 adminDelay, address minter, string memory baseURI_)
        ProductPassport(admin, adminDelay, minter, baseURI_)
    {}

    function $mint(address to, uint256 tokenId) external {
        _mint(to, tokenId);
    }

    function $burn(uint256 tokenId) external {
        _burn(tokenId);
    }
}
