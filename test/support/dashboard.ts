// Signs a dashboard user in over HTTP, as a browser would, for tests of /api/dashboard routes: a user of `role` is
// created in the brand (with a password, as the operator CLI does), then POST /api/dashboard/session sets the cookie.
import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { createMemberWithPassword } from "../../api/src/team/service";
import type { Role } from "../../api/src/team/roles";

export type DashboardClient = {
  email: string;
  password: string;
  role: Role;
  cookie: string;
  csrf: string;
  /** fetch against the API with the session cookie and, for anything but GET, the CSRF token. */
  call: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
};

export async function dashboardClient(baseUrl: string, db: Knex, brandId: number, role: Role): Promise<DashboardClient> {
  const email = `${role}-${randomBytes(5).toString("hex")}@test.local`;
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  await createMemberWithPassword(db, brandId, { email, role, password });
  const res = await fetch(`${baseUrl}/api/dashboard/session`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${role} failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { data: { csrf_token: string } };
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
  const csrf = body.data.csrf_token;
  const call = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    headers.set("Cookie", cookie);
    if ((init.method ?? "GET") !== "GET" && !headers.has("X-CSRF-Token")) headers.set("X-CSRF-Token", csrf);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(init.json);
    }
    return fetch(`${baseUrl}${path}`, { ...init, headers, body });
  };
  return { email, password, role, cookie, csrf, call };
}
