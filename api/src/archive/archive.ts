// The self-verifying passport archive (issue 16; docs/archive.md): a .tar.gz of passports, each with its content
// exactly as hashed, every earlier version of it (EN 18221, issue 25), its chain anchor, its public record and its
// signed credential, plus the DID document, a verify script that checks everything against any node of the chain,
// and a README saying how. Streamed: one passport in memory at a time, whatever their number.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import canonicalize from "canonicalize";
import { pack as tarPack, type Pack } from "tar-stream";
import type { AppDeps } from "../deps";
import { passportCredential } from "../interop/credential";
import { serviceDidDocument } from "../interop/signing-key";
import { publicPassport } from "../passports/public-passport";
import { buildPublicRecord } from "../passports/public-record";
import { listAnchoredVersions, listMintedUids, type AnchoredVersion } from "./archive.repo";

/** Whose passports: one brand's (the dashboard download) or every brand's (npm run export). */
export type ArchiveScope = { brandId: number } | { all: true };

export type ArchiveProgress = (event: { done: number; total: number; uid: string; credential: boolean }) => void;

const KIT_DIR = path.join(__dirname, "kit");
const ROOT_PACKAGE = path.join(__dirname, "..", "..", "..", "package.json");
/** What verify.js requires, at the versions this service runs (package.json pins them exactly). */
const VERIFY_DEPENDENCIES = ["ethers", "canonicalize"];

/** The archive's top folder: `passport-archive-<brand or "all">-<UTC date and time>`. */
export function archiveName(label: string, at: Date): string {
  return `passport-archive-${label}-${at.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-")}`;
}

/**
 * The archive as a gzip stream. Errors after the first byte (a database gone mid-way) end the stream with that
 * error: a truncated download, never a complete-looking archive that is not.
 */
export function passportArchive(deps: AppDeps, scope: ArchiveScope, options: { root: string; onProgress?: ArchiveProgress }): Readable {
  const tar = tarPack();
  const out = new PassThrough();
  pipeline(tar, createGzip(), out).catch((error: unknown) => out.destroy(error as Error));
  writeArchive(deps, scope, tar, options).then(
    () => tar.finalize(),
    (error: unknown) => tar.destroy(error as Error),
  );
  return out;
}

async function writeArchive(deps: AppDeps, scope: ArchiveScope, tar: Pack, options: { root: string; onProgress?: ArchiveProgress }): Promise<void> {
  const generatedAt = new Date();
  const add = (name: string, body: string, mode = 0o644) =>
    new Promise<void>((resolve, reject) => {
      tar.entry({ name: `${options.root}/${name}`, mode, mtime: generatedAt }, body, (error) => (error ? reject(error) : resolve()));
    });

  const uids = await listMintedUids(deps.db, "brandId" in scope ? scope.brandId : undefined);
  const did = await serviceDidDocument(deps.config).catch(() => undefined);
  if (did) await add("did.json", `${JSON.stringify(did, null, 2)}\n`);

  const entries: Array<{ uid: string; path: string; data_hash: string; versions: number; credential: boolean }> = [];
  let contract: string | null = null;
  for (const uid of uids) {
    const passport = await publicPassport(deps, uid);
    const record = buildPublicRecord(deps.config, passport);
    const { product } = passport;
    const folder = `passports/${product.uid}`;
    contract ??= passport.contractAddress;
    // Exactly the bytes that were hashed: keccak256 of this file is the data hash.
    const currentJson = canonicalize(passport.content)!;
    await add(`${folder}/content.json`, currentJson);
    const anchor = {
      uid: product.uid,
      chain_id: product.passport_chain_id ?? deps.config.chainId,
      network: deps.config.networkName,
      contract: product.passport_contract ?? passport.contractAddress,
      token_id: passport.tokenId,
      data_hash: passport.computedHash,
      data_hash_method: "keccak256 of the RFC 8785 canonical JSON of content.json",
      mint_tx_hash: product.passport_tx_hash,
      mint_block: product.passport_block_number === null ? null : Number(product.passport_block_number),
      minted_at: product.passport_minted_at ? new Date(product.passport_minted_at).toISOString() : null,
    };
    await add(`${folder}/anchor.json`, `${JSON.stringify(anchor, null, 2)}\n`);
    await add(`${folder}/record.json`, `${JSON.stringify(record, null, 2)}\n`);
    const versions = await listAnchoredVersions(deps.db, product.id);
    const index = versionIndex(versions, { json: currentJson, hash: passport.computedHash });
    for (const { entry, bytes } of index) {
      if (entry.content !== null && bytes !== null) await add(`${folder}/${entry.content}`, bytes);
    }
    const history = { uid: product.uid, token_id: passport.tokenId, versions: index.map(({ entry }) => entry) };
    await add(`${folder}/versions.json`, `${JSON.stringify(history, null, 2)}\n`);
    const credential = await passportCredential(deps, uid).catch((error: unknown) => {
      deps.logger.warn({ err: error, uid }, "archive: no credential for the passport");
      return undefined;
    });
    if (credential) {
      await add(`${folder}/credential.jwt`, `${credential.jwt}\n`);
      await add(`${folder}/credential.json`, `${JSON.stringify(credential.credential, null, 2)}\n`);
    }
    entries.push({ uid: product.uid, path: folder, data_hash: passport.computedHash, versions: index.length, credential: credential !== undefined });
    options.onProgress?.({ done: entries.length, total: uids.length, uid: product.uid, credential: credential !== undefined });
  }

  const manifest = {
    format: "passport-registry/archive/2",
    service: deps.config.publicBaseUrl,
    generated_at: generatedAt.toISOString(),
    chain_id: deps.config.chainId,
    network: deps.config.networkName,
    contract,
    did: did?.id ?? null,
    passports: entries,
  };
  await add("manifest.json", `${JSON.stringify(manifest, null, 2)}\n`);
  await add("verify/verify.js", readFileSync(path.join(KIT_DIR, "verify.cjs"), "utf8"), 0o755);
  await add("verify/package.json", `${JSON.stringify(verifyPackage(), null, 2)}\n`);
  const readme = readFileSync(path.join(KIT_DIR, "README.txt"), "utf8")
    .replaceAll("{{SERVICE}}", manifest.service)
    .replaceAll("{{GENERATED_AT}}", manifest.generated_at)
    .replaceAll("{{COUNT}}", String(entries.length))
    .replaceAll("{{CHAIN_ID}}", String(manifest.chain_id))
    .replaceAll("{{NETWORK}}", manifest.network)
    .replaceAll("{{CONTRACT}}", contract ?? "(none: no passport minted)");
  await add("README.txt", readme);
}

/** One line of a passport's versions.json: a version, its anchor, and the file of its bytes (or why there is none). */
type VersionEntry = {
  version: number;
  data_hash: string;
  valid_from: string | null;
  tx_hash: string | null;
  block_number: number | null;
  content: string | null;
  reason?: string;
};

/**
 * Every anchored version with the bytes versions/<n>.json holds. A version written before its bytes were kept
 * (migration 033) is listed without them; the current one can still be given, as the content rebuilt from the
 * product hashes to it.
 */
function versionIndex(versions: AnchoredVersion[], current: { json: string; hash: string }): Array<{ entry: VersionEntry; bytes: string | null }> {
  return versions.map((version, i) => {
    const isCurrent = i === versions.length - 1 && current.hash.toLowerCase() === version.data_hash.toLowerCase();
    const bytes = version.content ?? (isCurrent ? current.json : null);
    const entry: VersionEntry = {
      version: version.version,
      data_hash: version.data_hash,
      valid_from: version.valid_from ? new Date(version.valid_from).toISOString() : null,
      tx_hash: version.tx_hash,
      block_number: version.block_number === null ? null : Number(version.block_number),
      content: bytes === null ? null : `versions/${version.version}.json`,
      ...(bytes === null ? { reason: "written before the service kept each version's content (migration 033): only its hash is on record" } : {}),
    };
    return { entry, bytes };
  });
}

/** verify/package.json: CommonJS, the verify script's packages pinned to the versions this service uses. */
function verifyPackage() {
  const root = JSON.parse(readFileSync(ROOT_PACKAGE, "utf8")) as { dependencies: Record<string, string> };
  return {
    name: "passport-archive-verify",
    private: true,
    description: "Checks a Passport Registry archive against the chain (see ../README.txt)",
    type: "commonjs",
    main: "verify.js",
    engines: { node: ">=20" },
    scripts: { verify: "node verify.js" },
    dependencies: Object.fromEntries(VERIFY_DEPENDENCIES.map((name) => [name, root.dependencies[name]!])),
  };
}
