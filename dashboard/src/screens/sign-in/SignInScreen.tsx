// Sign in with email and password; afterwards the user lands where they were sent away from (?next=).
import { useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { api, dataOf } from "../../api/client";
import { EMAIL_MAX, PASSWORD_MAX } from "../../limits";
import { safeNext } from "../../paths";
import { setSession } from "../../session";
import { TextField } from "../../ui/fields";
import { useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { Page } from "../../ui/Page";

export function SignInScreen() {
  const [, navigate] = useLocation();
  const next = safeNext(new URLSearchParams(useSearch()).get("next"));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useAction();

  return (
    <Page title="Sign in to your brand dashboard">
      <form
        className="card narrow"
        onSubmit={(event) => {
          event.preventDefault();
          void signIn.run(async () => {
            const session = await dataOf(api.POST("/api/dashboard/session", { body: { email: email.trim(), password } }));
            setSession(session);
            navigate(next, { replace: true });
          });
        }}
      >
        <TextField label="Email" type="email" name="email" autoComplete="username" required maxLength={EMAIL_MAX} value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField label="Password" type="password" name="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} value={password} onChange={(e) => setPassword(e.target.value)} />
        <ActionStatus action={signIn} busyText="Signing in…" />
        <div className="actions">
          <button type="submit" aria-disabled={signIn.busy || undefined}>
            Sign in
          </button>
          <Link href="/forgot-password">Forgot your password?</Link>
        </div>
      </form>
    </Page>
  );
}
