// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

/// @dev Test only: a contract that does not implement IERC721Receiver (no fallback either).
contract NonReceiverMock {}
