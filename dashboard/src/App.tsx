// The app's routes under /dashboard: the signed-out screens, then everything else inside the signed-in shell, which
// first asks the API who is signed in (a 401 sends the browser to sign in and back).
import { useEffect, useState, type ReactNode } from "react";
import { Route, Router, Switch } from "wouter";
import { api, dataOf, type ApiError } from "./api/client";
import { Shell } from "./Shell";
import { APP_BASE } from "./paths";
import { AccountScreen } from "./screens/account/AccountScreen";
import { AcceptInviteScreen } from "./screens/accept-invite/AcceptInviteScreen";
import { ApiKeysScreen } from "./screens/api-keys/ApiKeysScreen";
import { AuditScreen } from "./screens/audit/AuditScreen";
import { AccessScreen } from "./screens/access/AccessScreen";
import { BrandingScreen } from "./screens/branding/BrandingScreen";
import { ForgotPasswordScreen } from "./screens/forgot-password/ForgotPasswordScreen";
import { ImportScreen } from "./screens/imports/ImportScreen";
import { NotFoundScreen } from "./screens/not-found/NotFoundScreen";
import { OverviewScreen } from "./screens/overview/OverviewScreen";
import { ProductScreen } from "./screens/product/ProductScreen";
import { ProductsScreen } from "./screens/products/ProductsScreen";
import { ResetPasswordScreen } from "./screens/reset-password/ResetPasswordScreen";
import { ScansScreen } from "./screens/scans/ScansScreen";
import { SignInScreen } from "./screens/sign-in/SignInScreen";
import { TagsScreen } from "./screens/taps/TagsScreen";
import { TapsScreen } from "./screens/taps/TapsScreen";
import { TeamScreen } from "./screens/team/TeamScreen";
import { UsageScreen } from "./screens/usage/UsageScreen";
import { WebhooksScreen } from "./screens/webhooks/WebhooksScreen";
import { OrdersScreen } from "./screens/orders/OrdersScreen";
import { GatewayKeysScreen } from "./screens/gateway-keys/GatewayKeysScreen";
import { CashierScreen } from "./screens/cashier/CashierScreen";
import { DomainScreen } from "./screens/domain/DomainScreen";
import { setSession, useSession } from "./session";
import { ErrorNotice, Loading } from "./ui/notices";
import { Requires } from "./Requires";

export function App() {
  return (
    <Router base={APP_BASE}>
      <Switch>
        <Route path="/sign-in">
          <SignedOutFrame>
            <SignInScreen />
          </SignedOutFrame>
        </Route>
        <Route path="/forgot-password">
          <SignedOutFrame>
            <ForgotPasswordScreen />
          </SignedOutFrame>
        </Route>
        <Route path="/reset-password">
          <SignedOutFrame>
            <ResetPasswordScreen />
          </SignedOutFrame>
        </Route>
        <Route path="/accept-invite">
          <SignedOutFrame>
            <AcceptInviteScreen />
          </SignedOutFrame>
        </Route>
        <Route>
          <SignedIn />
        </Route>
      </Switch>
    </Router>
  );
}

/** The screens a signed-out visitor sees: a header with the product name, and the form. */
function SignedOutFrame({ children }: { children: ReactNode }) {
  return (
    <div className="signed-out">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="signed-out-header">
        <span className="product-name">Passport Registry</span>
      </header>
      <main id="main" className="signed-out-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

function SignedIn() {
  const session = useSession();
  const [failure, setFailure] = useState<ApiError>();
  useEffect(() => {
    // A 401 is handled by the client (to sign-in and back, keeping this address).
    if (!session) dataOf(api.GET("/api/dashboard/session")).then(setSession, (error: ApiError) => error.status !== 401 && setFailure(error));
  }, [session]);

  if (!session)
    return (
      <main id="main" className="boot">
        {failure ? <ErrorNotice error={failure} title="The dashboard could not start." /> : <Loading what="your dashboard" />}
      </main>
    );

  return (
    <Shell session={session}>
      <Switch>
        <Route path="/">
          <OverviewScreen />
        </Route>
        <Route path="/products">
          <Requires permission="dashboard.read" what="reading the brand's products">
            <ProductsScreen />
          </Requires>
        </Route>
        <Route path="/products/:uid">
          {(params) => (
            <Requires permission="dashboard.read" what="reading the brand's products">
              <ProductScreen uid={params.uid} />
            </Requires>
          )}
        </Route>
        <Route path="/imports">
          <Requires permission="products.write" what="importing products">
            <ImportScreen />
          </Requires>
        </Route>
        <Route path="/imports/:id">
          {(params) => (
            <Requires permission="products.write" what="importing products">
              <ImportScreen importId={params.id} />
            </Requires>
          )}
        </Route>
        <Route path="/scans">
          <Requires permission="dashboard.read" what="reading the brand's scans">
            <ScansScreen />
          </Requires>
        </Route>
        <Route path="/taps">
          <Requires permission="dashboard.read" what="reading the brand's NFC taps">
            <TapsScreen />
          </Requires>
        </Route>
        <Route path="/taps/tags">
          <Requires permission="dashboard.read" what="reading the brand's NFC tags">
            <TagsScreen />
          </Requires>
        </Route>
        <Route path="/branding">
          <Requires permission="dashboard.read" what="reading the brand's branding">
            <BrandingScreen />
          </Requires>
        </Route>
        <Route path="/webhooks">
          <Requires permission="webhooks.manage" what="managing webhooks">
            <WebhooksScreen />
          </Requires>
        </Route>
        <Route path="/webhooks/:id">
          {(params) => (
            <Requires permission="webhooks.manage" what="managing webhooks">
              <WebhooksScreen endpointId={params.id} />
            </Requires>
          )}
        </Route>
        <Route path="/api-keys">
          <Requires permission="keys.manage" what="managing API keys">
            <ApiKeysScreen />
          </Requires>
        </Route>
        <Route path="/team">
          <Requires permission="team.manage" what="managing the team">
            <TeamScreen />
          </Requires>
        </Route>
        <Route path="/access">
          <Requires permission="dashboard.read" what="reading who read your passports">
            <AccessScreen />
          </Requires>
        </Route>
        <Route path="/audit">
          <Requires permission="team.manage" what="reading the audit log">
            <AuditScreen />
          </Requires>
        </Route>
        <Route path="/usage">
          <Requires permission="dashboard.read" what="reading the brand's plan and usage">
            <UsageScreen />
          </Requires>
        </Route>
        <Route path="/account">
          <Requires permission="account.own" what="managing your own account">
            <AccountScreen />
          </Requires>
        </Route>
        <Route path="/orders">
          <Requires permission="dashboard.read" what="reading the brand's orders">
            <OrdersScreen />
          </Requires>
        </Route>
        <Route path="/orders/:orderId">
          {(params) => (
            <Requires permission="dashboard.read" what="reading the brand's orders">
              <OrdersScreen orderId={params.orderId} />
            </Requires>
          )}
        </Route>
        <Route path="/gateway-keys">
          <Requires permission="payments.manage" what="managing gateway keys">
            <GatewayKeysScreen />
          </Requires>
        </Route>
        <Route path="/cashier/:orderId">
          {(params) => (
            <Requires permission="orders.confirm" what="confirming cash payments">
              <CashierScreen orderId={params.orderId} />
            </Requires>
          )}
        </Route>
        <Route path="/domain">
          <Requires permission="dashboard.read" what="reading the brand's domain settings">
            <DomainScreen />
          </Requires>
        </Route>
        <Route>
          <NotFoundScreen />
        </Route>
      </Switch>
    </Shell>
  );
}
