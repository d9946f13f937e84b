// Marking a minted passport lost, stolen or recovered (ProductPassport.setStatus). The contract holds the status and
// decides which changes are allowed; concurrent requests are serialised by the chain itself (the second one is
// refused at gas estimation and answered 409), so no lock is held here.
import type { AppDeps } from "../deps";
import { recordAudit, type Actor } from "../audit/service";
import { ConflictError, NotFoundError, ServiceUnavailableError } from "../errors";
import { tokenIdOf } from "../passports/content";
import { PASSPORT_STATUSES } from "../passports/stages";
import { broadcastPassportWrite, confirmPassportWrite, WriteNotConfirmed, type ConfirmedWrite } from "./passport-writes";
import { findProductByUid } from "./products.repo";

/** What the dashboard asks for: "active" is "recovered" on chain (nothing returns to Active once reported). */
export type RequestedStatus = "lost" | "stolen" | "active";
export type ChainStatus = (typeof PASSPORT_STATUSES)[number];

/** IProductPassport.Status: Active 0, Lost 1, Stolen 2, Recovered 3. */
const TARGET: Record<RequestedStatus, number> = { lost: 1, stolen: 2, active: 3 };

/** The transitions the contract allows (ProductPassport._isAllowedTransition), checked first for a clear answer. */
function refusal(from: number, to: number): string | undefined {
  if (from === to) return `The passport is ${PASSPORT_STATUSES[from]} already.`;
  if (to === 3 && from !== 1 && from !== 2) return "Only a passport marked lost or stolen can be recovered.";
  return undefined;
}

export async function setPassportStatus(
  deps: AppDeps,
  brandId: number,
  actor: Actor,
  uid: string,
  requested: RequestedStatus,
): Promise<ConfirmedWrite & { status: ChainStatus; previous: ChainStatus }> {
  const product = await findProductByUid(deps.db, uid, brandId);
  if (!product) throw new NotFoundError("Product");
  if (product.passport_status !== "minted") throw new ConflictError("Only an issued passport has a status on chain; issue the certificate first.");
  const tokenId = tokenIdOf(product.uid);
  const { passport } = deps.chain.contracts();
  const to = TARGET[requested];
  let from: number;
  try {
    from = Number(await passport.statusOf(tokenId));
  } catch {
    throw new ServiceUnavailableError("The chain could not be reached; nothing was changed. Retry shortly.");
  }
  const refused = refusal(from, to);
  if (refused) throw new ConflictError(refused);
  const sent = await broadcastPassportWrite(deps, () => passport.setStatus(tokenId, to), {
    InvalidStatusTransition: (args) => `The passport cannot go from ${PASSPORT_STATUSES[Number(args[1])]} to ${PASSPORT_STATUSES[Number(args[2])]} (it changed meanwhile).`,
  });
  let confirmed: ConfirmedWrite;
  try {
    confirmed = await confirmPassportWrite(deps, sent);
  } catch (error) {
    if (!(error instanceof WriteNotConfirmed)) throw error;
    throw new ServiceUnavailableError(
      error.reverted
        ? `The chain reverted the change (transaction ${sent.hash}); the status is unchanged.`
        : `The change was sent in transaction ${sent.hash} but is not confirmed yet; reload the product to see it.`,
    );
  }
  const status = PASSPORT_STATUSES[to]!;
  const previous = PASSPORT_STATUSES[from] ?? "active";
  await recordAudit(deps.db, brandId, actor, { action: "product.status_changed", target: product.uid, details: { from: previous, to: status, tx_hash: confirmed.txHash } });
  return { ...confirmed, status, previous };
}
