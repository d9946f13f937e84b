#!/usr/bin/env node
// Verifies a Passport Registry archive against the chain, without the service that wrote it: for every passport,
// the keccak256 of its content's RFC 8785 canonical JSON must be the hash the passport contract holds for its token,
// every archived version must hash to the hash the chain set at its step (the mint, then each update, in order), the
// model and batch it pins must be versions the chain anchored, the mint must be on chain as archived, and its
// credential's signature must verify with the archived did.json key.
// Usage: node verify.js --rpc <JSON-RPC URL> [--contract <address>] [--did <did.json>] [--archive <dir>] [--log-range <blocks>]
// --contract and --did pin what the archive only asserts: the passport contract and the signing key you trust.
// Needs Node 20 or later and the packages of package.json beside it (npm install, or NODE_PATH).
/* global require, __dirname, process, console, Buffer */
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const crypto = require("node:crypto");
const { Contract, JsonRpcProvider, ZeroAddress, keccak256, toUtf8Bytes } = require("ethers");
const canonicalize = require("canonicalize");

const ABI = [
  "function dataHashOf(uint256 tokenId) view returns (bytes32)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function exists(uint256 tokenId) view returns (bool)",
  "function mint(address to, uint256 tokenId, uint64 factoryId, bytes32 dataHash)",
  "function mintBatch(address to, uint64 factoryId, uint256[] tokenIds, bytes32[] dataHashes)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "event DataHashUpdated(uint256 indexed tokenId, bytes32 previousHash, bytes32 newHash)",
];

function parseArgs(argv) {
  const args = { rpc: process.env.RPC_URL, archive: path.resolve(__dirname, ".."), logRange: 50000 };
  for (let i = 0; i < argv.length; i += 1) {
    const name = argv[i];
    const value = argv[i + 1];
    if (name === "--help" || name === "-h") {
      args.help = true;
    } else if (name === "--rpc" && value) {
      args.rpc = value;
      i += 1;
    } else if (name === "--archive" && value) {
      args.archive = path.resolve(value);
      i += 1;
    } else if (name === "--contract" && /^0x[0-9a-fA-F]{40}$/.test(value || "")) {
      args.contract = value;
      i += 1;
    } else if (name === "--did" && value) {
      args.did = path.resolve(value);
      i += 1;
    } else if (name === "--log-range" && /^[1-9][0-9]*$/.test(value || "")) {
      args.logRange = Number(value);
      i += 1;
    } else {
      throw new Error(`unknown or incomplete argument: ${name}`);
    }
  }
  return args;
}

const USAGE = "Usage: node verify.js --rpc <JSON-RPC URL> [--contract <address>] [--did <did.json>] [--archive <dir>] [--log-range <blocks>]";

const hashOf = (value) => keccak256(toUtf8Bytes(canonicalize(value)));
const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf8"));
const sameHex = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

/** Events of `filter` from `from` to `to`, asked in ranges a public node accepts. */
async function logsBetween(contract, filter, from, to, range) {
  const logs = [];
  for (let start = from; start <= to; start += range) {
    logs.push(...(await contract.queryFilter(filter, start, Math.min(to, start + range - 1))));
  }
  return logs;
}

/** Logs in chain order. */
const byPosition = (a, b) => a.blockNumber - b.blockNumber || a.index - b.index;

/**
 * The tokens and hashes of one mint transaction: the contract logs a mint as a Transfer from zero, and the hashes are
 * arguments of the `mint` or `mintBatch` call, which must call the contract directly to be read. Asked once per
 * transaction (a batch holds up to 200 passports), however many of its tokens the archive holds.
 */
function mintCall(ctx, contract, txHash) {
  if (!ctx.mintCalls.has(txHash)) {
    ctx.mintCalls.set(
      txHash,
      contract.runner.provider.getTransaction(txHash).then((tx) => {
        if (!tx || !sameHex(tx.to, String(contract.target))) throw new Error(`mint transaction ${txHash} does not call the passport contract directly; its hash cannot be read`);
        const call = contract.interface.parseTransaction({ data: tx.data });
        if (call && call.name === "mint") return { ids: [call.args.tokenId], hashes: [call.args.dataHash] };
        if (call && call.name === "mintBatch") return { ids: [...call.args.tokenIds], hashes: [...call.args.dataHashes] };
        return { ids: [], hashes: [] };
      }),
    );
  }
  return ctx.mintCalls.get(txHash);
}

/** The hash a mint transaction set for a token. */
async function mintedHash(ctx, contract, log, tokenId) {
  const { ids, hashes } = await mintCall(ctx, contract, log.transactionHash);
  const at = ids.findIndex((id) => id === tokenId);
  if (at < 0) throw new Error(`mint transaction ${log.transactionHash} is not a mint or mintBatch call for the token`);
  return hashes[at];
}

/**
 * The hashes the chain set for a token, in order: its mint's (the Transfer from zero, with the hash its call passed),
 * then each DataHashUpdated's new hash, with the logs that set them.
 */
async function readChainHistory(ctx, contract, tokenId, mintBlock) {
  const known = Number.isInteger(mintBlock);
  const from = known ? mintBlock : 0;
  const minted = await logsBetween(contract, contract.filters.Transfer(ZeroAddress, null, tokenId), from, known ? from : ctx.head, ctx.logRange);
  const updates = (await logsBetween(contract, contract.filters.DataHashUpdated(tokenId), from, ctx.head, ctx.logRange)).sort(byPosition);
  const mintedHashes = await Promise.all(minted.map((log) => mintedHash(ctx, contract, log, tokenId)));
  const steps = [
    ...minted.map((log, i) => ({ hash: mintedHashes[i], log })),
    ...updates.map((log) => ({ hash: log.args.newHash, previous: log.args.previousHash, log })),
  ];
  return { minted, steps };
}

/** The hashes the chain set for a parent (a model or a batch), asked once however many items pin it. */
function parentHashes(ctx, contract, tokenId, mintBlock) {
  const key = `${String(contract.target).toLowerCase()}:${tokenId}`;
  if (!ctx.parentHashes.has(key)) ctx.parentHashes.set(key, readChainHistory(ctx, contract, tokenId, mintBlock).then(({ steps }) => steps.map((step) => step.hash)));
  return ctx.parentHashes.get(key);
}

const VERSION_FILE = /^versions\/[0-9]+\.json$/;

/**
 * Every archived version against the chain: the archive's versions, in order, must be the hashes the chain set, in
 * order, and each version whose bytes were kept must hash to its step's hash byte for byte. A version listed without
 * its content (`content: null`, with the reason) is checked by its hash alone.
 */
function checkVersions(entry, dir, steps, problems) {
  const file = path.join(dir, "versions.json");
  if (!fs.existsSync(file)) {
    problems.push("versions.json is missing");
    return undefined;
  }
  const listed = readJson(file).versions || [];
  const contents = [];
  let withoutContent = 0;
  for (let i = 0; i < Math.max(listed.length, steps.length); i += 1) {
    const version = listed[i];
    const step = steps[i];
    if (!version) {
      problems.push(`the chain set ${step.hash} in block ${step.log.blockNumber} (step ${i + 1}) and the archive holds no version for it (changed after the archive was written?)`);
      continue;
    }
    const name = `version ${version.version}`;
    if (!step) {
      problems.push(`${name} (${version.data_hash}) is not on chain: the chain set ${steps.length} hash(es) for the token`);
      continue;
    }
    if (!sameHex(version.data_hash, step.hash)) problems.push(`${name} is listed with ${version.data_hash}; the chain set ${step.hash} at step ${i + 1}`);
    if (version.tx_hash && !sameHex(version.tx_hash, step.log.transactionHash)) problems.push(`${name} was anchored in ${step.log.transactionHash}, not ${version.tx_hash}`);
    if (version.content === null || version.content === undefined) {
      withoutContent += 1;
      continue;
    }
    if (!VERSION_FILE.test(version.content) || !fs.existsSync(path.join(dir, version.content))) {
      problems.push(`${name}: ${version.content} is not in the archive`);
      continue;
    }
    const bytes = fs.readFileSync(path.join(dir, version.content), "utf8");
    let content;
    try {
      content = JSON.parse(bytes);
    } catch {
      problems.push(`${name} (${version.content}) is not JSON`);
      continue;
    }
    const canonical = canonicalize(content);
    const hash = keccak256(toUtf8Bytes(canonical));
    if (!sameHex(hash, step.hash)) problems.push(`${name} (${version.content}) hashes to ${hash}; the chain set ${step.hash} at step ${i + 1}`);
    else if (bytes !== canonical) problems.push(`${name} (${version.content}) is not byte for byte the canonical JSON that was hashed`);
    if (content.uid !== entry.uid) problems.push(`${name} is the passport of ${content.uid}, not ${entry.uid}`);
    contents.push({ version: version.version, content });
  }
  return { count: listed.length, withoutContent, contents };
}

/**
 * A content version 3 passport pins its model and batch by the data hash they had when it was made: that hash must be
 * one the chain set for the parent's token (keccak256 of its UID). Checked when the parent is in the archive, whose
 * anchor names its contract; otherwise the line says it was not.
 */
async function checkParents(contents, ctx, problems) {
  const notes = [];
  const seen = new Set();
  for (const { version, content } of contents) {
    const identity = content.passport;
    if (!identity || typeof identity !== "object") continue;
    for (const level of ["model", "batch"]) {
      const ref = identity[level];
      if (!ref || typeof ref.uid !== "string") continue;
      const key = `${level} ${ref.uid} ${ref.data_hash}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const parent = ctx.entries.get(ref.uid.toUpperCase());
      if (!parent) {
        notes.push(`${level} ${ref.uid} not in the archive, its pin not checked`);
        continue;
      }
      const parentDir = path.join(ctx.archive, parent.path);
      const parentAnchor = readJson(path.join(parentDir, "anchor.json"));
      const tokenId = BigInt(keccak256(toUtf8Bytes(ref.uid.toUpperCase())));
      const hashes = await parentHashes(ctx, ctx.contractAt(ctx.trustedContract || parentAnchor.contract), tokenId, parentAnchor.mint_block);
      const at = hashes.findIndex((hash) => sameHex(hash, ref.data_hash));
      if (at < 0) problems.push(`version ${version} pins its ${level} ${ref.uid} at ${ref.data_hash}, a hash the chain never set for that passport`);
      else notes.push(`${level} ${ref.uid} pinned at its anchored version ${at + 1}`);
      const parentContent = readJson(path.join(parentDir, "content.json"));
      const parentId = parentContent.passport && parentContent.passport.id;
      if (parentId && parentId !== ref.id) problems.push(`version ${version} names its ${level} ${ref.uid} ${ref.id}, but that passport's id is ${parentId}`);
    }
  }
  return notes;
}

/** The credential's signature, checked with the key its `kid` names in the archived DID document. */
function verifyCredential(jwt, credentialJson, didDocument, didName) {
  const parts = jwt.trim().split(".");
  if (parts.length !== 3) return "credential.jwt is not a compact JWS";
  const header = JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8"));
  const method = (didDocument.verificationMethod || []).find((m) => m.id === header.kid);
  if (!method || !method.publicKeyJwk) return `the credential's key ${header.kid} is not in ${didName}`;
  const key = crypto.createPublicKey({ key: method.publicKeyJwk, format: "jwk" });
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`, "ascii");
  const signature = Buffer.from(parts[2], "base64url");
  let valid;
  if (header.alg === "EdDSA") valid = crypto.verify(null, signed, key, signature);
  else if (header.alg === "ES256") valid = crypto.verify("sha256", signed, { key, dsaEncoding: "ieee-p1363" }, signature);
  else return `unsupported signature algorithm ${header.alg}`;
  if (!valid) return `the credential's signature does not verify with ${didName}`;
  const payload = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  if (credentialJson && canonicalize(payload) !== canonicalize(credentialJson)) return "credential.json is not what credential.jwt signs";
  return undefined;
}

async function verifyPassport(entry, ctx) {
  const dir = path.join(ctx.archive, entry.path);
  const problems = [];
  const anchor = readJson(path.join(dir, "anchor.json"));
  const content = readJson(path.join(dir, "content.json"));
  const computed = hashOf(content);
  const tokenId = BigInt(keccak256(toUtf8Bytes(entry.uid.toUpperCase())));
  if (content.uid !== entry.uid) problems.push(`content.json is the passport of ${content.uid}, not ${entry.uid}`);
  if (String(tokenId) !== anchor.token_id) problems.push(`token id ${anchor.token_id} is not keccak256 of the UID (${tokenId})`);
  if (ctx.trustedContract && !sameHex(anchor.contract, ctx.trustedContract)) {
    problems.push(`anchored on contract ${anchor.contract}, not the trusted ${ctx.trustedContract}`);
    return { problems, computed };
  }
  const contract = ctx.contractAt(anchor.contract);
  if (!(await contract.exists(tokenId))) {
    problems.push(`token ${tokenId} does not exist on chain`);
    return { problems, computed };
  }
  const onChain = await contract.dataHashOf(tokenId);
  if (!sameHex(onChain, computed)) problems.push(`content hashes to ${computed}; the chain holds ${onChain}`);
  const owner = await contract.ownerOf(tokenId);

  // The mint as archived, and the hash history: the last hash the events set is the one the contract holds.
  const { minted, steps } = await readChainHistory(ctx, contract, tokenId, anchor.mint_block);
  if (minted.length !== 1) problems.push(`expected one mint (Transfer from zero) of the token${Number.isInteger(anchor.mint_block) ? ` in block ${anchor.mint_block}` : ""}, found ${minted.length}`);
  else if (anchor.mint_tx_hash && !sameHex(minted[0].transactionHash, anchor.mint_tx_hash)) problems.push(`minted in ${minted[0].transactionHash}, not ${anchor.mint_tx_hash}`);
  for (let i = 1; i < steps.length; i += 1) {
    if (steps[i].previous && !sameHex(steps[i].previous, steps[i - 1].hash)) problems.push(`the chain's update at step ${i + 1} replaced ${steps[i].previous}, not the hash of step ${i}`);
  }
  if (steps.length > 0 && !sameHex(steps[steps.length - 1].hash, onChain)) problems.push("the contract's hash is not the last one its events set");

  // Every version, each against the hash the chain set at its step; then the model and batch the versions pin.
  const versions = ctx.everyVersion ? checkVersions(entry, dir, steps, problems) : undefined;
  const parents = versions ? await checkParents(versions.contents, ctx, problems) : [];

  // record.json repeats the content: it must be the content that was hashed, not other words beside it.
  const record = readJson(path.join(dir, "record.json"));
  if (canonicalize(record.content) !== canonicalize(content)) problems.push("record.json's content is not content.json");

  const jwtFile = path.join(dir, "credential.jwt");
  const credentialFile = path.join(dir, "credential.json");
  // A credential.json is only as good as the signature over it: without credential.jwt nothing vouches for it.
  if (!fs.existsSync(jwtFile) && (entry.credential || fs.existsSync(credentialFile))) problems.push("credential.jwt is missing");
  if (fs.existsSync(jwtFile)) {
    const credential = fs.existsSync(credentialFile) ? readJson(credentialFile) : undefined;
    const problem = ctx.didDocument ? verifyCredential(fs.readFileSync(jwtFile, "utf8"), credential, ctx.didDocument, ctx.didName) : `${ctx.didName} is missing`;
    if (problem) problems.push(problem);
    const anchored = credential && credential.credentialSubject && credential.credentialSubject.chainAnchor;
    if (anchored && anchored.dataHash && !sameHex(anchored.dataHash, computed)) problems.push(`the credential anchors ${anchored.dataHash}, not the content's ${computed}`);
  }
  return { problems, computed, owner, versions, parents, updates: steps.length - 1 };
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  if (args.help || !args.rpc) {
    console.error(`${USAGE}\n(the RPC URL may also come from RPC_URL)`);
    return args.help ? 0 : 2;
  }
  const manifest = readJson(path.join(args.archive, "manifest.json"));
  const didFile = args.did || path.join(args.archive, "did.json");
  if (args.did && !fs.existsSync(args.did)) {
    console.error(`--did ${args.did}: no such file`);
    return 2;
  }
  const provider = new JsonRpcProvider(args.rpc, undefined, { staticNetwork: true });
  let chainId;
  let head;
  try {
    chainId = Number((await provider.getNetwork()).chainId);
    head = await provider.getBlockNumber();
  } catch (error) {
    console.error(`cannot reach the chain at ${args.rpc}: ${error.message}`);
    provider.destroy();
    return 2;
  }
  const contracts = new Map();
  const ctx = {
    archive: args.archive,
    head,
    logRange: args.logRange,
    didDocument: fs.existsSync(didFile) ? readJson(didFile) : undefined,
    didName: args.did ? path.basename(args.did) : "did.json",
    trustedContract: args.contract,
    // Archives written before every version was kept (format 1) have no versions.json.
    everyVersion: manifest.format !== "passport-registry/archive/1",
    entries: new Map(manifest.passports.map((entry) => [entry.uid.toUpperCase(), entry])),
    parentHashes: new Map(),
    mintCalls: new Map(),
    contractAt: (address) => {
      if (!contracts.has(address)) contracts.set(address, new Contract(address, ABI, provider));
      return contracts.get(address);
    },
  };
  console.log(`Archive of ${manifest.service} written ${manifest.generated_at}: ${manifest.passports.length} passports`);
  console.log(`Chain ${chainId} at ${args.rpc}, block ${head}`);
  // What the archive only asserts, and what the reader pinned: a forger can write an archive whose contract and key
  // are their own, and it verifies against them.
  console.log(
    args.contract
      ? `Contract pinned: ${args.contract}`
      : `Contract ${manifest.contract} is the archive's own word: pass --contract <address> with the address the brand publishes.`,
  );
  console.log(
    args.did
      ? `Signing key from ${args.did}`
      : "Signatures are checked with the archive's own did.json: pass --did <file> with the issuer's published /.well-known/did.json.",
  );
  if (!ctx.everyVersion) console.log(`Archive format ${manifest.format}: it holds no earlier versions, so only each passport's current content is checked.`);
  let failed = 0;
  if (chainId !== manifest.chain_id) {
    console.log(`FAIL the archive's passports are on chain ${manifest.chain_id}, this node is chain ${chainId}`);
    failed = manifest.passports.length;
  } else {
    for (const entry of manifest.passports) {
      let result;
      try {
        result = await verifyPassport(entry, ctx);
      } catch (error) {
        result = { problems: [error.message] };
      }
      if (result.problems.length === 0) {
        const { versions, parents } = result;
        let history = result.updates > 0 ? `, ${result.updates} update(s)` : "";
        if (versions) history = `, ${versions.count} version(s) each as the chain anchored it${versions.withoutContent ? `, ${versions.withoutContent} listed without its content` : ""}`;
        const pins = parents && parents.length > 0 ? `; ${parents.join("; ")}` : "";
        console.log(`OK   ${entry.uid}  ${result.computed} on chain (owner ${result.owner}${history}${pins})`);
      } else {
        failed += 1;
        console.log(`FAIL ${entry.uid}  ${result.problems.join("; ")}`);
      }
    }
  }
  provider.destroy();
  console.log(failed === 0 ? `All ${manifest.passports.length} passports verified.` : `${failed} of ${manifest.passports.length} passports FAILED.`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(error);
    process.exitCode = 2;
  },
);
