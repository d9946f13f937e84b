// Where the app lives and which of its screens are open to signed-out visitors; the return address after sign-in;
// the token of an emailed link.
import { useSyncExternalStore } from "react";

export const APP_BASE = "/dashboard";

/** Screens that do not need a session (the API serves the same page for all of them). */
export const PUBLIC_SCREENS = ["/sign-in", "/forgot-password", "/reset-password", "/accept-invite"] as const;

export function isPublicScreen(appPath: string): boolean {
  return PUBLIC_SCREENS.some((screen) => appPath === screen || appPath.startsWith(`${screen}/`));
}

/** The current address inside the app (path and query, without /dashboard), to come back to after signing in. */
export function currentAppPath(): string {
  const path = window.location.pathname.startsWith(APP_BASE) ? window.location.pathname.slice(APP_BASE.length) : "/";
  return `${path || "/"}${window.location.search}`;
}

/**
 * A `next` address from the query, if it is a path inside the app. Anything else (another site, `//host`, a
 * backslash trick, a public screen) is dropped, so a crafted sign-in link cannot send a user elsewhere.
 */
export function safeNext(next: string | null): string {
  if (!next || !/^\/(?![/\\])[A-Za-z0-9/_\-.?=&%]*$/.test(next) || next.length > 300) return "/";
  return isPublicScreen(next.split("?")[0]!) ? "/" : next;
}

/**
 * The one-time token of an emailed link (reset password, accept invitation: #token=…) or of a Cash QR (#t=…),
 * carried in the URL fragment so it never reaches a server log or a Referer header.
 */
export function tokenFromFragment(name = "token"): string | null {
  const token = new URLSearchParams(window.location.hash.replace(/^#/, "")).get(name);
  return token && /^[A-Za-z0-9_-]{10,100}$/.test(token) ? token : null;
}

function subscribeToFragment(listener: () => void): () => void {
  window.addEventListener("hashchange", listener);
  return () => window.removeEventListener("hashchange", listener);
}

/** The fragment's token, following the address if only its fragment changes (a second link opened in the tab). */
export function useFragmentToken(): string | null {
  return useSyncExternalStore(subscribeToFragment, tokenFromFragment);
}
