// Prints the storage layout (slot, offset, variable, declaring contract, type) of a compiled contract.
// Run `npx tsx scripts/storage-layout.ts [Contract]` after `npm run build`; default ProductPassport.
//
// The layout is the compiler's, not a reading of the source: hardhat.config.ts asks solc for `storageLayout`, so the
// build info of the compilation that made the bytecode carries it, with the AST that names each declaring contract.
import { readFileSync } from "node:fs";
import path from "node:path";

type StorageEntry = { astId: number; slot: string; offset: number; label: string; type: string };
type StorageLayout = { storage: StorageEntry[]; types: Record<string, { label: string }> | null };
type AstNode = { id?: number; nodeType?: string; name?: string; scope?: number; [key: string]: unknown };
/** One storage variable, with the contract that declares it (solc reports only the contract being laid out). */
export type StorageSlot = { slot: number; offset: number; name: string; declaredIn: string; type: string };

const root = path.resolve(__dirname, "..");

export function storageLayout(contractName: string): StorageSlot[] {
  const sourcePath = `contracts/${contractName}.sol`;
  const artifactDir = path.join(root, "artifacts", sourcePath);
  const debug = JSON.parse(readFileSync(path.join(artifactDir, `${contractName}.dbg.json`), "utf8"));
  const output = JSON.parse(readFileSync(path.resolve(artifactDir, debug.buildInfo), "utf8")).output;
  const layout: StorageLayout | undefined = output.contracts[sourcePath]?.[contractName]?.storageLayout;
  if (!layout) throw new Error(`the build info of ${contractName} has no storageLayout: run npm run build (hardhat.config.ts asks for it)`);

  const nodes = new Map<number, AstNode>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== "object") return;
    const node = value as AstNode;
    if (typeof node.id === "number") nodes.set(node.id, node);
    Object.values(node).forEach(visit);
  };
  for (const source of Object.values(output.sources as Record<string, { ast: unknown }>)) visit(source.ast);

  return layout.storage.map((entry) => ({
    slot: Number(entry.slot),
    offset: entry.offset,
    name: entry.label,
    declaredIn: nodes.get(nodes.get(entry.astId)?.scope ?? -1)?.name ?? "?",
    type: layout.types?.[entry.type]?.label ?? entry.type,
  }));
}

function main(): void {
  const contractName = process.argv[2] ?? "ProductPassport";
  console.log(`storage layout of ${contractName}: slot, byte offset, variable, declared in, type`);
  for (const { slot, offset, name, declaredIn, type } of storageLayout(contractName)) {
    console.log(`${String(slot).padStart(4)} ${String(offset).padStart(2)}  ${name.padEnd(30)} ${declaredIn.padEnd(32)} ${type}`);
  }
}

if (require.main === module) main();
