// The Hardhat configuration a local node starts with (scripts/lib/hardhat-node.ts): the chain alone. The project's
// hardhat.config.ts loads ts-node, TypeChain and the coverage plugin, which a node never uses; skipping them saves
// about two seconds a start. Keep the network settings the same as hardhat.config.ts's `hardhat` network.
module.exports = {
  networks: { hardhat: { chainId: 31337 } },
};
