// Accept an invitation (/dashboard/accept-invite#token=…): see who invited you as what, choose a password, sign in.
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { api, dataOf } from "../../api/client";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../limits";
import { setSession } from "../../session";
import { TextField } from "../../ui/fields";
import { useAction, useResource } from "../../ui/hooks";
import { ActionStatus, ErrorNotice, Loading } from "../../ui/notices";
import { Page } from "../../ui/Page";
import { useFragmentToken } from "../../paths";

export function AcceptInviteScreen() {
  const [, navigate] = useLocation();
  const token = useFragmentToken();
  const invitation = useResource(
    () => (token ? dataOf(api.POST("/api/dashboard/invitations/inspect", { body: { token } })) : Promise.resolve(null)),
    [token],
  );
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const accept = useAction();

  if (!token)
    return (
      <Page title="Accept your invitation">
        <p className="card narrow" role="alert">
          This link is incomplete. Open the link from the invitation email again.
        </p>
      </Page>
    );

  return (
    <Page title="Accept your invitation">
      <div className="card narrow">
        {invitation.loading && <Loading what="the invitation" />}
        {invitation.error &&
          (invitation.error.status === 404 ? (
            <div role="alert" className="notice error">
              <p>This invitation was used or has expired. Ask the person who invited you to send a new one.</p>
            </div>
          ) : (
            <ErrorNotice error={invitation.error} title="The invitation could not be read." />
          ))}
        {invitation.data && !invitation.error && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void accept.run(async () => {
                const session = await dataOf(
                  api.POST("/api/dashboard/invitations/accept", { body: { token, password, ...(name.trim() ? { name: name.trim() } : {}) } }),
                );
                setSession(session);
                navigate("/", { replace: true });
              });
            }}
          >
            <p>
              You are invited to <strong>{invitation.data.brand}</strong> as <strong>{invitation.data.role}</strong>. You will sign in as{" "}
              <strong>{invitation.data.email}</strong>.
            </p>
            <TextField label="Your name (optional)" autoComplete="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
            <TextField
              label="Choose a password"
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN}
              maxLength={PASSWORD_MAX}
              hint={`At least ${PASSWORD_MIN} characters.`}
              error={accept.error?.problemWith("password")}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <ActionStatus action={accept} busyText="Joining…" />
            <div className="actions">
              <button type="submit" aria-disabled={accept.busy || undefined}>
                Accept and sign in
              </button>
              <Link href="/sign-in">I already have an account</Link>
            </div>
          </form>
        )}
      </div>
    </Page>
  );
}
