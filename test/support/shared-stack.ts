// One seeded local stack (chain, contracts, indexer, API, demo data) shared by the test files that need the chain;
// started on first use and stopped by the root hook at the end of the run.
import { seedDemo, type DemoState } from "../../scripts/lib/seed";
import { waitFor } from "../../scripts/lib/processes";
import { startStack, type Stack } from "../../scripts/lib/stack";
import { createTestDatabase } from "./hooks";

export type SeededStack = Stack & { demo: DemoState };

let shared: Promise<SeededStack> | undefined;

export function sharedStack(): Promise<SeededStack> {
  shared ??= (async () => {
    // A request gives up on a receipt after 15 s, not 60: a test that stalls the chain on purpose (dashboard-products)
    // need not wait a minute, and a local receipt comes in about a second, even on a busy machine.
    const stack = await startStack(await createTestDatabase("shared_stack"), { blockIntervalMs: 1000, apiEnv: { CHAIN_RECEIPT_WAIT_MS: "15000" } });
    try {
      const demo = await seedDemo({
        db: stack.api.db,
        wallet: stack.wallet,
        contracts: stack.contracts,
        previous: undefined,
        apiUrl: stack.api.url,
        demoApiKey: undefined,
        log: () => undefined,
      });
      await waitForIndexer(stack);
      return { ...stack, demo };
    } catch (error) {
      await stack.stop();
      throw error;
    }
  })();
  return shared;
}

/** Resolves once /readyz is 200: the indexer has caught up with everything sent so far. */
export async function waitForIndexer(stack: Stack): Promise<void> {
  const head = await stack.wallet.wallet.provider!.getBlockNumber();
  await waitFor(
    "the indexer to reach the chain head",
    async () => {
      // Both: the blocks sent so far are indexed, and the service calls itself ready (the chain mines on a timer, so
      // an indexer at `head` may already be more blocks behind than /readyz allows).
      const res = await fetch(`${stack.api.url}/readyz`);
      const body = (await res.json()) as { checks: { indexer: { indexed_block?: number } } };
      return res.status === 200 && (body.checks.indexer.indexed_block ?? -1) >= head ? true : undefined;
    },
    120_000,
    100,
  );
}

export async function stopSharedStack(): Promise<void> {
  if (!shared) return;
  const stack = await shared.catch(() => undefined);
  shared = undefined;
  await stack?.stop();
}
