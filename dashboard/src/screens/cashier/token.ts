// The Cash QR's confirmation token (/dashboard/cashier/<orderId>#t=<token>), kept in this tab's sessionStorage: a
// cashier whose phone is not signed in goes through the sign-in screen, and that redirect drops the fragment.
import { APP_BASE, tokenFromFragment } from "../../paths";

const CASHIER_PATH = new RegExp(`^${APP_BASE}/cashier/(ord_[0-9A-Za-z]{22})$`);
const keyOf = (orderId: string) => `cashier-token:${orderId}`;

/**
 * When the app opens on a cashier link, moves its token from the fragment into sessionStorage and out of the
 * address bar. Called as the bundle loads, before the session check can send the browser to sign in.
 */
export function keepCashierToken(): void {
  const orderId = CASHIER_PATH.exec(window.location.pathname)?.[1];
  const token = orderId ? tokenFromFragment("t") : null;
  if (!orderId || !token) return;
  try {
    window.sessionStorage.setItem(keyOf(orderId), token);
  } catch {
    // Storage off: the token stays in the address, which still works as long as no sign-in is needed.
    return;
  }
  window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
}

/** The token of the order's link: from the address, else the one kept when the link was opened. */
export function cashierToken(orderId: string): string | null {
  const fromFragment = tokenFromFragment("t");
  if (fromFragment) return fromFragment;
  try {
    return window.sessionStorage.getItem(keyOf(orderId));
  } catch {
    return null;
  }
}

/** Once the payment is confirmed the token is spent: nothing to keep. */
export function forgetCashierToken(orderId: string): void {
  try {
    window.sessionStorage.removeItem(keyOf(orderId));
  } catch {
    // Nothing kept.
  }
}
