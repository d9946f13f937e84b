// Choose a new password with the token from a reset link (/dashboard/reset-password#token=…).
import { useState } from "react";
import { Link } from "wouter";
import { api, done } from "../../api/client";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../limits";
import { TextField } from "../../ui/fields";
import { focusFirstInvalid, useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { Page } from "../../ui/Page";
import { useFragmentToken } from "../../paths";

export function ResetPasswordScreen() {
  const token = useFragmentToken();
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const reset = useAction();

  if (!token)
    return (
      <Page title="Reset your password">
        <div className="card narrow">
          <p role="alert">This link is incomplete. Open the link from the email again, or ask for a new one.</p>
          <Link href="/forgot-password">Ask for a new link</Link>
        </div>
      </Page>
    );

  return (
    <Page title="Choose a new password">
      <form
        className="card narrow"
        onSubmit={(event) => {
          event.preventDefault();
          if (password !== repeat) {
            setMismatch(true);
            focusFirstInvalid(event.currentTarget);
            return;
          }
          setMismatch(false);
          void reset.run(async () => {
            await done(api.POST("/api/dashboard/password-resets/complete", { body: { token, password } }));
            return "Your password is set. Every earlier session has ended: sign in with the new password.";
          });
        }}
      >
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={`At least ${PASSWORD_MIN} characters.`}
          error={reset.error?.problemWith("password")}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <TextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          error={mismatch ? "The two passwords are not the same." : undefined}
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
        />
        {reset.error?.status === 404 ? (
          <div role="alert" className="notice error">
            <p>
              This reset link was used or has expired. <Link href="/forgot-password">Ask for a new link</Link>.
            </p>
          </div>
        ) : (
          <ActionStatus action={reset} busyText="Saving…" />
        )}
        <div className="actions">
          {reset.message ? (
            <Link href="/sign-in">Go to sign in</Link>
          ) : (
            <button type="submit" aria-disabled={reset.busy || undefined}>
              Set new password
            </button>
          )}
        </div>
      </form>
    </Page>
  );
}
