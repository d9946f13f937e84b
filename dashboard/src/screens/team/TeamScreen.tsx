// The brand's team: invite people with a role, change roles, remove people, cancel pending invitations.
import { useState } from "react";
import { api, dataOf, done } from "../../api/client";
import { EMAIL_MAX } from "../../limits";
import { useSession, type Session } from "../../session";
import { ConfirmButton } from "../../ui/buttons";
import { SelectField, TextField } from "../../ui/fields";
import { formatDateTime } from "../../ui/format";
import { useAction, useResource } from "../../ui/hooks";
import { ActionStatus, Empty, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { TableScroll } from "../../ui/TableScroll";

type Role = Session["user"]["role"];
type Member = Awaited<ReturnType<typeof loadTeam>>[number];

const ROLE_TEXT: Record<Role, string> = {
  owner: "Owner: everything, including other owners",
  admin: "Admin: everything but owners",
  editor: "Editor: products, certificates, tags",
  cashier: "Cashier: confirms payments at the till",
  viewer: "Viewer: reads only",
};

/** Only an owner makes or unmakes owners (the API's mayManageRole). */
function assignableRoles(actor: Role): Role[] {
  const all: Role[] = ["owner", "admin", "editor", "cashier", "viewer"];
  return actor === "owner" ? all : all.filter((role) => role !== "owner");
}

const loadTeam = () => dataOf(api.GET("/api/dashboard/team"));

export function TeamScreen() {
  const session = useSession();
  const team = useResource(loadTeam, []);
  const act = useAction();
  const roles = assignableRoles(session?.user.role ?? "viewer");
  const active = team.data?.filter((member) => member.status === "active") ?? [];
  const invited = team.data?.filter((member) => member.status === "invited") ?? [];

  const remove = (member: Member, message: string) =>
    act.run(async () => {
      await done(api.DELETE("/api/dashboard/team/{id}", { params: { path: { id: String(member.id) } } }));
      team.reload();
      return message;
    });

  return (
    <Page title="Team">
      <InviteForm roles={roles} onInvited={team.reload} />
      <ActionStatus action={act} busyText="Saving…" />
      {team.loading && !team.data && <Loading what="the team" />}
      {team.error && <ErrorNotice error={team.error} title="The team could not be loaded." />}
      {team.data && (
        <>
          <Section title="Members" id="members">
            <TableScroll label="Members">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Person</th>
                    <th scope="col">Role</th>
                    <th scope="col" className="wide-only">
                      Last sign-in
                    </th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {active.map((member) => (
                    <MemberRow
                      key={member.id}
                      member={member}
                      roles={roles}
                      isSelf={member.id === session?.user.id}
                      busy={act.busy}
                      onRole={(role) =>
                        act.run(async () => {
                          await dataOf(api.PATCH("/api/dashboard/team/{id}", { params: { path: { id: String(member.id) } }, body: { role } }));
                          team.reload();
                          return `${member.email} is now ${role}.`;
                        })
                      }
                      onRemove={() => remove(member, `${member.email} was removed; their sessions have ended.`)}
                    />
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </Section>
          <Section title="Pending invitations" id="invitations">
            {invited.length === 0 ? (
              <Empty>No pending invitations.</Empty>
            ) : (
              <ul className="plain-list">
                {invited.map((member) => (
                  <li key={member.id}>
                    <span>
                      <strong>{member.email}</strong> as {member.role}, invited {formatDateTime(member.created_at)}
                    </span>
                    <ConfirmButton
                      label="Cancel invitation"
                      context={`of ${member.email}`}
                      confirmLabel="Yes, cancel it"
                      question="The link in the email will stop working."
                      disabled={act.busy}
                      onConfirm={() => remove(member, `The invitation of ${member.email} was cancelled.`)}
                    />
                  </li>
                ))}
              </ul>
            )}
          </Section>
        </>
      )}
    </Page>
  );
}

function InviteForm({ roles, onInvited }: { roles: Role[]; onInvited: () => void }) {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const invite = useAction();
  return (
    <Section title="Invite someone" id="invite">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void invite.run(async () => {
            const sent = await dataOf(api.POST("/api/dashboard/team/invitations", { body: { email: email.trim(), role, ...(name.trim() ? { name: name.trim() } : {}) } }));
            setEmail("");
            setName("");
            onInvited();
            return `Invitation sent to ${sent.member.email}; the link works until ${formatDateTime(sent.expires_at)}.`;
          });
        }}
      >
        <div className="form-grid">
          <TextField label="Email" type="email" required maxLength={EMAIL_MAX} value={email} onChange={(e) => setEmail(e.target.value)} error={invite.error?.problemWith("email")} />
          <TextField label="Name (optional)" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as Role)} hint={ROLE_TEXT[role]}>
            {roles.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </SelectField>
        </div>
        <ActionStatus action={invite} busyText="Sending the invitation…" />
        <button type="submit" aria-disabled={invite.busy || undefined}>
          Send invitation
        </button>
      </form>
    </Section>
  );
}

function MemberRow({
  member,
  roles,
  isSelf,
  busy,
  onRole,
  onRemove,
}: {
  member: Member;
  roles: Role[];
  isSelf: boolean;
  busy: boolean;
  onRole: (role: Role) => Promise<boolean>;
  onRemove: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [role, setRole] = useState<Role>(member.role);
  const manageable = roles.includes(member.role);
  return (
    <tr>
      <th scope="row">
        {member.name ?? member.email}
        {member.name && <div className="muted small">{member.email}</div>}
        {isSelf && <div className="muted small">(you)</div>}
      </th>
      <td>
        {editing ? (
          <form
            className="rotate-form"
            onSubmit={async (event) => {
              event.preventDefault();
              if (await onRole(role)) setEditing(false);
            }}
          >
            <SelectField label={`New role for ${member.email}`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {roles.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </SelectField>
            <div className="row-actions">
              <button type="submit" className="small" aria-disabled={busy || undefined}>
                Save role
              </button>
              <button type="button" className="secondary small" onClick={() => setEditing(false)}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          member.role
        )}
      </td>
      <td className="wide-only">{member.last_login_at ? formatDateTime(member.last_login_at) : "Never"}</td>
      <td>
        {manageable && !editing && (
          <div className="row-actions">
            <button type="button" className="secondary small" aria-disabled={busy || undefined} onClick={() => setEditing(true)}>
              Change role<span className="sr-only"> of {member.email}</span>
            </button>
            {!isSelf && (
              <ConfirmButton label="Remove" context={member.email} confirmLabel="Yes, remove" question="Their sessions end at once." disabled={busy} onConfirm={onRemove} />
            )}
          </div>
        )}
      </td>
    </tr>
  );
}
