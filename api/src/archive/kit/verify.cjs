#!/usr/bin/env node
// Verifies a Passport Registry archive against the chain, without the service that wrote it: for every passport,
// the keccak256 of its content's RFC 8785 canonical JSON must be the hash the passport contract holds for its token,
// the mint must be on chain as archived, and its credential's signature must verify with the archived did.json key.
// Usage: node verify.js --rpc <JSON-RPC URL> [--contract <address>] [--did <did.json>] [--archive <dir>] [--log-range <blocks>]
// --contract and --did pin what the archive only asserts: the passport contract and the signing key you trust.
// Needs Node 20 or later and the packages of package.json beside it (npm install, or NODE_PATH).
/* global require, __dirname, process, console, Buffer */
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const crypto = require("node:crypto");
const { Contract, JsonRpcProvider, keccak256, toUtf8Bytes } = require("ethers");
const canonicalize = require("canonicalize");

const ABI = [
  "function dataHashOf(uint256 tokenId) view returns (bytes32)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function exists(uint256 tokenId) view returns (bool)",
  "event PassportMinted(uint256 indexed tokenId, uint64 indexed factoryId, bytes32 dataHash)",
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
  const mintBlock = Number.isInteger(anchor.mint_block) ? anchor.mint_block : 0;
  const minted = await logsBetween(contract, contract.filters.PassportMinted(tokenId), mintBlock, Number.isInteger(anchor.mint_block) ? mintBlock : ctx.head, ctx.logRange);
  if (minted.length !== 1) problems.push(`expected one PassportMinted event for the token${Number.isInteger(anchor.mint_block) ? ` in block ${mintBlock}` : ""}, found ${minted.length}`);
  else if (anchor.mint_tx_hash && !sameHex(minted[0].transactionHash, anchor.mint_tx_hash)) problems.push(`minted in ${minted[0].transactionHash}, not ${anchor.mint_tx_hash}`);
  const updates = await logsBetween(contract, contract.filters.DataHashUpdated(tokenId), mintBlock, ctx.head, ctx.logRange);
  const history = [...minted.map((log) => log.args.dataHash), ...updates.map((log) => log.args.newHash)];
  if (history.length > 0 && !sameHex(history[history.length - 1], onChain)) problems.push("the contract's hash is not the last one its events set");

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
  return { problems, computed, owner, updates: updates.length };
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
        const versions = result.updates ? `, ${result.updates} update(s)` : "";
        console.log(`OK   ${entry.uid}  ${result.computed} on chain (owner ${result.owner}${versions})`);
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
