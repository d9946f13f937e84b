// Supply-chain stage codes recorded on chain (IProductPassport), and their names.
import { SUPPLY_CHAIN_STAGE_NAMES } from "../generated/contract-constants";

/** Stage name by code, as the contract's NatSpec names them (generated at build). */
export const STAGES = SUPPLY_CHAIN_STAGE_NAMES;

export const PASSPORT_STATUSES = ["active", "lost", "stolen", "recovered"] as const;
