// GET /explorer/tx/:hash: the service's own transaction page, so `network_url` opens on a local chain with no
// public explorer. Shows the transaction, its block, its decoded call (a mint's data hashes are only there) and the
// decoded passport and registry events.
import type Router from "@koa/router";
import { Interface, type Log } from "ethers";
import type { AppDeps, AppState } from "../../deps";
import { FactoryRegistry__factory, ProductPassport__factory } from "../../../../typechain-types";
import type { OpenApiRegistry } from "../../openapi/registry";
import { defineRoute, HTML, mountRoutes } from "../define-route";
import { html, page } from "../../pages/html";
import { EXPLORER_LOOKUPS, TransactionLookup } from "../../chain/transaction-lookup";

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const interfaces = [new Interface(ProductPassport__factory.abi), new Interface(FactoryRegistry__factory.abi)];

function decode(log: Log) {
  for (const iface of interfaces) {
    const parsed = iface.parseLog({ topics: [...log.topics], data: log.data });
    if (parsed) {
      return { name: parsed.name, args: parsed.fragment.inputs.map((input, i) => `${input.name} = ${String(parsed.args[i])}`) };
    }
  }
  return { name: "unknown event", args: [log.topics[0] ?? ""] };
}

/** The contract function a transaction calls, with its arguments; null for anything but our two contracts. */
function decodeCall(data: string) {
  for (const iface of interfaces) {
    // Anyone can send a transaction whose input starts with one of our selectors but whose arguments do not decode
    // (ethers throws then): such a page shows no call rather than failing.
    let parsed: ReturnType<Interface["parseTransaction"]>;
    try {
      parsed = iface.parseTransaction({ data });
    } catch {
      return null;
    }
    if (parsed) {
      return { name: parsed.name, args: parsed.fragment.inputs.map((input, i) => `${input.name} = ${String(parsed.args[i])}`) };
    }
  }
  return null;
}

export function explorerRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const lookups = new TransactionLookup(deps.provider);

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/explorer/tx/:hash",
      operationId: "getTransactionPage",
      tag: "Pages",
      auth: "public",
      summary: "Transaction page for chains without a public explorer (the local chain): transaction, block, decoded events",
      params: { type: "object", required: ["hash"], properties: { hash: { type: "string", pattern: TX_HASH.source } } },
      // A malformed hash is answered with a page, not the JSON error envelope.
      handlerChecksParams: true,
      responses: {
        "200": HTML("HTML page"),
        "404": HTML("no such transaction (HTML)"),
        "422": HTML("not a transaction hash (HTML)"),
        "503": HTML("too many lookups under way; Retry-After says when to try again (HTML)"),
      },
      handler: async (ctx) => {
        const hash = ctx.params.hash;
        ctx.type = "text/html; charset=utf-8";
        if (!TX_HASH.test(hash)) {
          ctx.status = 422;
          ctx.body = page("Invalid transaction hash", html`<h1>Invalid transaction hash</h1><p>Expected 0x and 64 hex digits.</p>`);
          return;
        }
        const result = await lookups.get(hash);
        if (result.kind === "busy") {
          ctx.status = 503;
          ctx.set("Retry-After", "5");
          ctx.set("Cache-Control", "no-store");
          ctx.body = page("Try again shortly", html`<h1>Try again shortly</h1><p>Too many transactions are being looked up right now.</p>`);
          return;
        }
        if (result.kind === "missing") {
          ctx.status = 404;
          ctx.set("Cache-Control", `public, max-age=${EXPLORER_LOOKUPS.missingMs / 1000}`);
          ctx.body = page("Transaction not found", html`<h1>Transaction not found</h1><p>No transaction ${hash} on ${deps.config.networkName}.</p>`);
          return;
        }
        const { tx, receipt, block } = result.found;
        const call = decodeCall(tx.data);
        const events = (receipt?.logs ?? []).map((log) => ({ ...decode(log), address: log.address, index: log.index }));
        ctx.set("Cache-Control", receipt ? "public, max-age=60" : "no-store");
        ctx.body = page(
          `Transaction ${hash}`,
          html`<h1>Transaction</h1>
<section><dl>
  <dt>Hash</dt><dd>${tx.hash}</dd>
  <dt>Network</dt><dd>${deps.config.networkName} (chain id ${deps.config.chainId})</dd>
  <dt>Status</dt><dd class="${receipt?.status === 1 ? "ok" : "bad"}">${receipt ? (receipt.status === 1 ? "success" : "reverted") : "pending"}</dd>
  <dt>Block</dt><dd>${receipt?.blockNumber ?? "pending"}</dd>
  <dt>Block hash</dt><dd>${receipt?.blockHash ?? "-"}</dd>
  <dt>Time</dt><dd>${block ? new Date(block.timestamp * 1000).toISOString() : "-"}</dd>
  <dt>From</dt><dd>${tx.from}</dd>
  <dt>To</dt><dd>${tx.to ?? "contract creation"}</dd>
  <dt>Nonce</dt><dd>${tx.nonce}</dd>
  <dt>Gas used</dt><dd>${receipt?.gasUsed.toString() ?? "-"}</dd>
</dl></section>
<section><h2>Call</h2>${
            call
              ? html`<h3>${call.name}</h3><dl>${call.args.map((a) => html`<dt>arg</dt><dd>${a}</dd>`)}</dl>`
              : html`<p>No call of the passport or factory registry contract decodes from its input.</p>`
          }</section>
<section><h2>Events</h2>${events.map(
            (e) => html`<h3>#${e.index} ${e.name}</h3><dl><dt>Contract</dt><dd>${e.address}</dd>${e.args.map((a) => html`<dt>arg</dt><dd>${a}</dd>`)}</dl>`,
          )}</section>`,
        );
      },
    }),
  ]);
}
