// The local protocol servers of the three payment gateways, started together for `npm start` and the tests.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { GatewayCredentials } from "../../../api/src/payments/gateway";
import { startBkashSim } from "./bkash";
import type { RunningSim, SimOptions } from "./common";
import { startNagadSim } from "./nagad";
import { startSslcommerzSim } from "./sslcommerz";

export { startBkashSim } from "./bkash";
export { startNagadSim, type RunningNagadSim } from "./nagad";
export { startSslcommerzSim } from "./sslcommerz";
export type { FailureKind, RunningSim, SimApproval, SimControl, SimOptions } from "./common";

export type PaymentSims = { bkash: RunningSim; nagad: RunningSim; sslcommerz: RunningSim; stop(): Promise<void> };

type SavedKeys = { bkash?: GatewayCredentials; nagad?: GatewayCredentials & { pg_private_key?: string }; sslcommerz?: GatewayCredentials };

/**
 * Starts the three simulators on free ports of 127.0.0.1. With `stateDir`, the credentials they accept (and the
 * Nagad PG key) are kept in `<stateDir>/payment-sims.json` and reused on the next start, so the keys a seeded brand
 * holds stay valid across restarts of the local stack; without it every start makes fresh ones (tests).
 */
export async function startPaymentSims(opts: Omit<SimOptions, "port" | "credentials"> & { stateDir?: string } = {}): Promise<PaymentSims> {
  const file = opts.stateDir ? path.join(opts.stateDir, "payment-sims.json") : undefined;
  const saved = file ? readSaved(file) : {};
  const { stateDir: _dir, ...simOptions } = opts;
  const started: RunningSim[] = [];
  try {
    const bkash = await startBkashSim({ ...simOptions, credentials: saved.bkash });
    started.push(bkash);
    const { pg_private_key: pgPrivateKeyPem, ...nagadCredentials } = saved.nagad ?? {};
    const nagad = await startNagadSim({ ...simOptions, credentials: saved.nagad ? nagadCredentials : undefined, pgPrivateKeyPem });
    started.push(nagad);
    const sslcommerz = await startSslcommerzSim({ ...simOptions, credentials: saved.sslcommerz });
    started.push(sslcommerz);
    if (file) {
      mkdirSync(path.dirname(file), { recursive: true });
      const keys: SavedKeys = { bkash: bkash.credentials, nagad: { ...nagad.credentials, pg_private_key: nagad.pgPrivateKeyPem }, sslcommerz: sslcommerz.credentials };
      writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
    }
    return { bkash, nagad, sslcommerz, stop: () => Promise.all([bkash.stop(), nagad.stop(), sslcommerz.stop()]).then(() => undefined) };
  } catch (error) {
    await Promise.all(started.map((sim) => sim.stop()));
    throw error;
  }
}

function readSaved(file: string): SavedKeys {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as SavedKeys;
  } catch {
    return {};
  }
}
