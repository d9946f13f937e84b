// The signed-in frame: skip link, header (brand, who is signed in, sign out), the navigation the user's role can use
// (collapsed behind a Menu button on a phone) and the main landmark the screens render into.
import { useEffect, useState, type ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { api, done } from "./api/client";
import { allows, setSession, type Permission, type Session } from "./session";

/** No `permission`: every role's (the Overview is the brand's month, or a cashier's till). */
type NavItem = { href: string; label: string; permission?: Permission };

/**
 * Every screen in the navigation, with the permission that makes it useful (the API enforces it regardless). A
 * cashier, without dashboard.read, sees the Overview (their till) and their Account, none of the brand-wide screens.
 */
const NAV: NavItem[] = [
  { href: "/", label: "Overview" },
  { href: "/products", label: "Products", permission: "dashboard.read" },
  { href: "/scans", label: "Scans", permission: "dashboard.read" },
  { href: "/taps", label: "NFC taps", permission: "dashboard.read" },
  { href: "/orders", label: "Orders", permission: "dashboard.read" },
  { href: "/branding", label: "Branding", permission: "dashboard.read" },
  { href: "/domain", label: "Domain", permission: "dashboard.read" },
  { href: "/webhooks", label: "Webhooks", permission: "webhooks.manage" },
  { href: "/api-keys", label: "API keys", permission: "keys.manage" },
  { href: "/gateway-keys", label: "Gateway keys", permission: "payments.manage" },
  { href: "/team", label: "Team", permission: "team.manage" },
  { href: "/audit", label: "Audit log", permission: "team.manage" },
  { href: "/access", label: "Passport access", permission: "dashboard.read" },
  { href: "/usage", label: "Plan and usage", permission: "dashboard.read" },
  { href: "/account", label: "Account", permission: "account.own" },
];

function isCurrent(location: string, href: string): boolean {
  return href === "/" ? location === "/" : location === href || location.startsWith(`${href}/`) || (href === "/products" && location.startsWith("/imports"));
}

export function Shell({ session, children }: { session: Session; children: ReactNode }) {
  const [location, navigate] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signOutFailed, setSignOutFailed] = useState(false);

  useEffect(() => setMenuOpen(false), [location]);

  const signOut = async () => {
    try {
      await done(api.DELETE("/api/dashboard/session", { body: {} }));
    } catch {
      setSignOutFailed(true);
      return;
    }
    navigate("/sign-in", { replace: true });
    setSession(null);
  };

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="top">
        <div className="top-brand">
          <span className="product-name">Passport Registry</span>
          <span className="brand-name">{session.brand.name}</span>
        </div>
        <button type="button" className="menu-button secondary" aria-expanded={menuOpen} aria-controls="site-nav" onClick={() => setMenuOpen((open) => !open)}>
          Menu
        </button>
        <div className="top-user">
          <span className="user-line">
            {session.user.name ?? session.user.email} <span className="role">({session.user.role})</span>
          </span>
          <button type="button" className="secondary" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <div role="alert">{signOutFailed && <p className="notice error">Signing out failed. Check your connection and try again.</p>}</div>
      <div className="frame">
        <nav id="site-nav" aria-label="Dashboard" className={menuOpen ? "open" : ""}>
          <div className="nav-user">
            <span className="user-line">
              {session.user.name ?? session.user.email} <span className="role">({session.user.role})</span>
            </span>
            <button type="button" className="secondary" onClick={signOut}>
              Sign out
            </button>
          </div>
          <ul>
            {NAV.filter((item) => !item.permission || allows(session, item.permission)).map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={isCurrent(location, item.href) ? "page" : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {session.brand.status === "suspended" && (
            <p className="notice error" role="note">
              This brand is suspended: you can look, but changes are refused. Contact the registry operator.
            </p>
          )}
          {children}
        </main>
      </div>
    </div>
  );
}
