// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";

/// @dev Test only: an ERC-721 receiver whose answer is chosen at deployment, like OpenZeppelin's own mock.
contract ERC721ReceiverMock is IERC721Receiver {
    enum Behaviour {
        Accept, // returns the magic value
        WrongValue, // returns another bytes4
        RevertWithMessage, // reverts with a reason string
        RevertWithCustomError, // reverts with CustomError
        RevertEmpty, // reverts without data
        Panic // divides by zero
    }

    Behaviour private immutable _behaviour;

    event Received(address operator, address from, uint256 tokenId, bytes data);

    error CustomError(bytes4 retval);

    constructor(Behaviour behaviour) {
        _behaviour = behaviour;
    }

    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data)
        external
        returns (bytes4)
    {
        if (_behaviour == Behaviour.WrongValue) return 0xdeadbeef;
        if (_behaviour == Behaviour.RevertWithMessage) revert("ERC721ReceiverMock: reverting");
        if (_behaviour == Behaviour.RevertWithCustomError) {
            revert CustomError(IERC721Receiver.onERC721Received.selector);
        }
        if (_behaviour == Behaviour.RevertEmpty) revert();
        if (_behaviour == Behaviour.Panic) {
            uint256 zero;
            return bytes4(uint32(1 / zero));
        }
        emit Received(operator, from, tokenId, data);
        return IERC721Receiver.onERC721Received.selector;
    }
}
