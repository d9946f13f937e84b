// The signed-in session as the app knows it (from GET/POST /api/dashboard/session): who, which brand, what the role
// allows, and the CSRF token every write carries. A tiny store, read by components through useSession().
import { useSyncExternalStore } from "react";
import type { paths } from "./api/schema";

export type Session = paths["/api/dashboard/session"]["get"]["responses"][200]["content"]["application/json"]["data"];
export type Permission = Session["permissions"][number];

/** undefined: not asked yet; null: signed out. */
let current: Session | null | undefined;
const listeners = new Set<() => void>();

export function setSession(session: Session | null): void {
  current = session;
  for (const listener of listeners) listener();
}

export function currentSession(): Session | null | undefined {
  return current;
}

export function csrfToken(): string | undefined {
  return current?.csrf_token;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session | null | undefined {
  return useSyncExternalStore(subscribe, currentSession);
}

/**
 * Whether the role allows `permission`. Only for showing what the user can use: the server checks every call again.
 */
export function allows(session: Session | null | undefined, permission: Permission): boolean {
  return session?.permissions.includes(permission) ?? false;
}
