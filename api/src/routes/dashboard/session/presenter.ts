// The dashboard session as the browser sees it: who is signed in, for which brand, what their role allows.
import { can, PERMISSIONS, type Permission } from "../../../team/roles";
import type { SessionUser } from "../../../team/service";

export function presentSession(user: SessionUser) {
  return {
    user: { id: user.id, email: user.email, name: user.name, role: user.role },
    brand: { slug: user.brand.slug, name: user.brand.name, plan: user.brand.plan, status: user.brand.status },
    permissions: (Object.keys(PERMISSIONS) as Permission[]).filter((permission) => can(user.role, permission)),
    csrf_token: user.csrfToken,
    expires_at: user.expiresAt.toISOString(),
  };
}
