// Shows a screen only to roles that may use it, and a plain explanation to the others. A courtesy, not a control:
// the API refuses the calls anyway.
import type { ReactNode } from "react";
import { allows, useSession, type Permission } from "./session";
import { Page } from "./ui/Page";
import { Forbidden } from "./ui/notices";

export function Requires({ permission, what, children }: { permission: Permission; what: string; children: ReactNode }) {
  const session = useSession();
  if (allows(session, permission)) return <>{children}</>;
  return (
    <Page title="Not available for your role">
      <Forbidden what={what} />
    </Page>
  );
}
