// The passports a PassportsMinted log announces, read from the minting call's arguments; kept apart from the handlers
// (no Ponder import) so that a plain test can feed it transactions Ponder would.
import { decodeFunctionData, isAddressEqual, type Hex } from "viem";
import { ProductPassportAbi } from "../abis/ProductPassport";

export type MintCall = { factoryId: bigint; passports: { tokenId: bigint; dataHash: Hex }[] };

/** What the handler receives for PassportsMinted, as far as decoding needs it. */
export type PassportsMintedEvent = {
  log: { address: Hex };
  transaction: { hash: Hex; to: Hex | null; input: Hex };
  args: { factoryId: bigint; count: bigint };
};

/**
 * The passports one `PassportsMinted` announced, read from the minting call's own arguments (its ids are also in the
 * Transfer logs that follow it; its hashes only in the call). This is the transaction Ponder already has, not a chain
 * read. Only a direct call of the contract can be decoded so; anything else stops the indexer rather than guess.
 */
export function mintCallOf(event: PassportsMintedEvent): MintCall {
  const { hash, to, input } = event.transaction;
  const refuse = (why: string): never => {
    throw new Error(`indexer: PassportsMinted in transaction ${hash} cannot be indexed: ${why}`);
  };
  if (to === null || !isAddressEqual(to, event.log.address)) {
    refuse(`the transaction calls ${to ?? "no address"}, not the passport contract; the minter must call it directly`);
  }
  let decoded: ReturnType<typeof decodeFunctionData<typeof ProductPassportAbi>>;
  try {
    decoded = decodeFunctionData({ abi: ProductPassportAbi, data: input });
  } catch (error) {
    return refuse(`its input does not decode as a passport contract call (${String(error)})`);
  }
  let call: MintCall;
  if (decoded.functionName === "mint") {
    const [, tokenId, factoryId, dataHash] = decoded.args;
    call = { factoryId, passports: [{ tokenId, dataHash }] };
  } else if (decoded.functionName === "mintBatch") {
    const [, factoryId, tokenIds, dataHashes] = decoded.args;
    call = { factoryId, passports: tokenIds.map((tokenId, i) => ({ tokenId, dataHash: dataHashes[i]! })) };
  } else {
    return refuse(`its input calls ${decoded.functionName}, not mint or mintBatch`);
  }
  if (call.factoryId !== event.args.factoryId || BigInt(call.passports.length) !== event.args.count) {
    refuse(
      `the call mints ${call.passports.length} passport(s) for factory ${call.factoryId}, ` +
        `the event says ${event.args.count} for factory ${event.args.factoryId}`,
    );
  }
  return call;
}
