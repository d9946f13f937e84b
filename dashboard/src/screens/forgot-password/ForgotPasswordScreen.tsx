// Ask for a password-reset link by email. The answer is the same whether or not the address has an account.
import { useState } from "react";
import { Link } from "wouter";
import { api, done } from "../../api/client";
import { EMAIL_MAX } from "../../limits";
import { TextField } from "../../ui/fields";
import { useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { Page } from "../../ui/Page";

export function ForgotPasswordScreen() {
  const [email, setEmail] = useState("");
  const request = useAction();
  return (
    <Page title="Reset your password">
      <form
        className="card narrow"
        onSubmit={(event) => {
          event.preventDefault();
          void request.run(async () => {
            await done(api.POST("/api/dashboard/password-resets", { body: { email: email.trim() } }));
            return "If that address has an account, a link to set a new password is on its way. It works for 60 minutes.";
          });
        }}
      >
        <p>Enter the email address you sign in with. We will send you a link to choose a new password.</p>
        <TextField label="Email" type="email" name="email" autoComplete="username" required maxLength={EMAIL_MAX} value={email} onChange={(e) => setEmail(e.target.value)} />
        <ActionStatus action={request} busyText="Sending…" />
        <div className="actions">
          <button type="submit" aria-disabled={request.busy || undefined}>
            Send reset link
          </button>
          <Link href="/sign-in">Back to sign in</Link>
        </div>
      </form>
    </Page>
  );
}
