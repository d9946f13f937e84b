// Your own account: who you are signed in as, changing your password, signing out here or everywhere.
import { useState } from "react";
import { useLocation } from "wouter";
import { api, done } from "../../api/client";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../limits";
import { setSession, useSession } from "../../session";
import { ConfirmButton } from "../../ui/buttons";
import { TextField } from "../../ui/fields";
import { formatDateTime } from "../../ui/format";
import { focusFirstInvalid, useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";

export function AccountScreen() {
  const session = useSession();
  const [, navigate] = useLocation();
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const change = useAction();
  const leave = useAction();

  const signOut = (everywhere: boolean) =>
    leave.run(async () => {
      await done(api.DELETE("/api/dashboard/session", { body: { everywhere } }));
      navigate("/sign-in", { replace: true });
      setSession(null);
    });

  if (!session) return null;
  return (
    <Page title="Account">
      <div className="grid">
        <Section title="You" id="you">
          <dl className="facts">
            <div>
              <dt>Email</dt>
              <dd>{session.user.email}</dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>{session.user.role}</dd>
            </div>
            <div>
              <dt>Brand</dt>
              <dd>
                {session.brand.name} ({session.brand.slug})
              </dd>
            </div>
            <div>
              <dt>Session ends</dt>
              <dd>{formatDateTime(session.expires_at)}</dd>
            </div>
          </dl>
        </Section>
        <Section title="Change password" id="password">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (password !== repeat) {
                setMismatch(true);
                focusFirstInvalid(event.currentTarget);
                return;
              }
              setMismatch(false);
              void change.run(async () => {
                await done(api.POST("/api/dashboard/password", { body: { current_password: current, password } }));
                setCurrent("");
                setPassword("");
                setRepeat("");
                return "Password changed. Your other sessions have ended.";
              });
            }}
          >
            <TextField label="Current password" type="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} value={current} onChange={(e) => setCurrent(e.target.value)} error={change.error?.problemWith("current_password")} />
            <TextField
              label="New password"
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN}
              maxLength={PASSWORD_MAX}
              hint={`At least ${PASSWORD_MIN} characters.`}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={change.error?.problemWith("password")}
            />
            <TextField
              label="Confirm password"
              type="password"
              autoComplete="new-password"
              required
              maxLength={PASSWORD_MAX}
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
              error={mismatch ? "The two passwords are not the same." : undefined}
            />
            <ActionStatus action={change} busyText="Changing…" />
            <button type="submit" aria-disabled={change.busy || undefined}>
              Change password
            </button>
          </form>
        </Section>
        <Section title="Sign out" id="sign-out">
          <p>Signing out everywhere ends your sessions on every device, for example a shared till or a lost phone.</p>
          <div className="actions">
            <button type="button" className="secondary" aria-disabled={leave.busy || undefined} onClick={() => signOut(false)}>
              Sign out of this browser
            </button>
            <ConfirmButton label="Sign out everywhere" confirmLabel="Yes, sign out everywhere" question="Every session of yours ends now." disabled={leave.busy} onConfirm={() => signOut(true)} />
          </div>
          <ActionStatus action={leave} busyText="Signing out…" />
        </Section>
      </div>
    </Page>
  );
}
