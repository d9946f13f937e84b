// Configuration fails closed (issue 9, finding 7): local mode only on this machine's chain 31337, production never
// with Hardhat's public keys or the public local SECRETS_KEY, X-Forwarded-For trusted only when asked for; each
// refusal names the variable, and the process exits non-zero.
import { spawn } from "node:child_process";
import path from "node:path";
import { expect } from "chai";
import { HDNodeWallet, Mnemonic } from "ethers";
import { ConfigError, loadConfig, LOCAL_SECRETS_KEY, LOCAL_TAG_MASTER_KEY } from "../../api/src/config";

const ROOT = path.resolve(__dirname, "..", "..");
const PROVIDER_KEY = "0123456789abcdef0123456789abcdef";

/** A production environment that loads; each test spoils one variable. */
const PRODUCTION = {
  SERVICE_MODE: "production",
  CHAIN_ID: "137",
  DATABASE_URL: "postgres://u:p@db.internal/registry",
  RPC_URL: "https://polygon-mainnet.example/rpc",
  PUBLIC_BASE_URL: "https://dpp.example",
  SIGNER_PRIVATE_KEY: `0x${"42".repeat(32)}`,
  SECRETS_KEY: "ab".repeat(32),
  TAG_MASTER_KEY: "cd".repeat(32),
  CREDENTIAL_SIGNING_KEY_FILE: "/etc/passport-registry/credential-signing-key.json",
};

/** The problems loadConfig lists for `env`, or [] when it loads. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
}

/** Hardhat's 20 default accounts: the well-known "test test … junk" mnemonic, as Hardhat derives them. */
function hardhatKeys(): string[] {
  const mnemonic = Mnemonic.fromPhrase("test test test test test test test test test test test junk");
  return Array.from({ length: 20 }, (_, i) => HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/0'/0/${i}`).privateKey);
}

describe("configuration fails closed", () => {
  it("loads a sound production environment", () => {
    expect(problemsOf(PRODUCTION)).to.deep.equal([]);
  });

  describe("in local mode (the default without SERVICE_MODE)", () => {
    it("refuses an RPC_URL that is not this machine, without quoting its credentials", () => {
      for (const rpcUrl of [
        `https://mainnet.infura.io/v3/${PROVIDER_KEY}`,
        "http://10.0.0.5:8545",
        "http://127.0.0.1.attacker.example:8545",
        "http://[2001:db8::1]:8545",
      ]) {
        const problems = problemsOf({ RPC_URL: rpcUrl });
        expect(problems, rpcUrl).to.have.length(1);
        expect(problems[0]).to.match(/^RPC_URL /);
        expect(problems[0]).to.not.include(PROVIDER_KEY);
      }
    });

    it("accepts loopback RPC addresses", () => {
      for (const rpcUrl of ["http://127.0.0.1:8545", "http://localhost:8545", "http://[::1]:8545", "http://127.0.0.2:9000"]) {
        expect(problemsOf({ RPC_URL: rpcUrl }), rpcUrl).to.deep.equal([]);
      }
    });

    it("refuses a CHAIN_ID other than 31337, whatever key is used", () => {
      expect(problemsOf({ CHAIN_ID: "137" }).join("\n")).to.match(/CHAIN_ID must be 31337 in local mode/);
      expect(problemsOf({ CHAIN_ID: "1", SIGNER_PRIVATE_KEY: PRODUCTION.SIGNER_PRIVATE_KEY }).join("\n")).to.include("CHAIN_ID");
      expect(problemsOf({ CHAIN_ID: "31337" })).to.deep.equal([]);
    });
  });

  describe("in production", () => {
    it("refuses every one of Hardhat's 20 default keys, in any letter case, with or without 0x, on any chain", () => {
      const keys = hardhatKeys();
      expect(new Set(keys).size).to.equal(20);
      for (const key of keys) {
        const hex = key.slice(2);
        for (const variant of [key, `0x${hex.toUpperCase()}`, `0x${hex.slice(0, 32)}${hex.slice(32).toUpperCase()}`, hex, `0X${hex}`]) {
          for (const chainId of ["137", "31337"]) {
            const problems = problemsOf({ ...PRODUCTION, CHAIN_ID: chainId, SIGNER_PRIVATE_KEY: variant });
            expect(problems.join("\n"), `${variant} on ${chainId}`).to.match(/SIGNER_PRIVATE_KEY must not be .*Hardhat's public test key/);
          }
        }
      }
    });

    it("refuses the public local SECRETS_KEY, as base64 or as hex", () => {
      const hex = Buffer.from(LOCAL_SECRETS_KEY, "base64").toString("hex");
      for (const variant of [LOCAL_SECRETS_KEY, hex, hex.toUpperCase()]) {
        expect(problemsOf({ ...PRODUCTION, SECRETS_KEY: variant }).join("\n"), variant).to.match(/SECRETS_KEY must not be the public local key/);
      }
    });

    it("requires TAG_MASTER_KEY and refuses the public local one, as base64 or as hex", () => {
      const { TAG_MASTER_KEY: _, ...without } = PRODUCTION;
      expect(problemsOf(without)).to.include("TAG_MASTER_KEY is required in production");
      const hex = Buffer.from(LOCAL_TAG_MASTER_KEY, "base64").toString("hex");
      for (const variant of [LOCAL_TAG_MASTER_KEY, hex, hex.toUpperCase()]) {
        expect(problemsOf({ ...PRODUCTION, TAG_MASTER_KEY: variant }).join("\n"), variant).to.match(/TAG_MASTER_KEY must not be the public local key/);
      }
      expect(problemsOf({ ...PRODUCTION, TAG_MASTER_KEY: "short" }).join("\n")).to.match(/TAG_MASTER_KEY must be 32 bytes/);
    });

    it("refuses a TAG_MASTER_KEY equal to SECRETS_KEY, however each is written", () => {
      const key = Buffer.from("5e".repeat(32), "hex");
      for (const [secrets, tags] of [
        [key.toString("hex"), key.toString("hex")],
        [key.toString("hex"), key.toString("base64")],
        [key.toString("base64"), key.toString("hex").toUpperCase()],
      ]) {
        expect(problemsOf({ ...PRODUCTION, SECRETS_KEY: secrets!, TAG_MASTER_KEY: tags! }), `${secrets} / ${tags}`).to.deep.equal([
          "TAG_MASTER_KEY must not be the same key as SECRETS_KEY in production",
        ]);
      }
      // Local mode keeps its two public defaults, which differ anyway.
      expect(problemsOf({ SECRETS_KEY: key.toString("hex"), TAG_MASTER_KEY: key.toString("hex") })).to.deep.equal([]);
    });

    it("trusts X-Forwarded-For only when TRUSTED_PROXY_HOPS is set", () => {
      expect(loadConfig(PRODUCTION).trustedProxyHops).to.equal(0);
      expect(loadConfig({ ...PRODUCTION, TRUSTED_PROXY_HOPS: "1" }).trustedProxyHops).to.equal(1);
      expect(loadConfig({}).trustedProxyHops).to.equal(0);
    });
  });

  it("makes the API process exit non-zero, naming each bad variable, before it touches anything", async () => {
    // No SERVICE_MODE, so local mode: a provider's mainnet RPC with a key in it, and a chain that is not Hardhat's.
    const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", RPC_URL: `https://mainnet.infura.io/v3/${PROVIDER_KEY}`, CHAIN_ID: "1" };
    const child = spawn(process.execPath, ["--import", "tsx", "api/src/server.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code, stderr).to.equal(1);
    expect(stderr).to.include("invalid configuration");
    expect(stderr).to.match(/RPC_URL /);
    expect(stderr).to.match(/CHAIN_ID /);
    expect(stderr).to.not.include(PROVIDER_KEY);
  });
});
