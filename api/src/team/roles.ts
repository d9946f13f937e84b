// What each role of a brand's team may do: the one table every dashboard route's `permission` is checked against.
export const ROLES = ["owner", "admin", "editor", "cashier", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/**
 * Each permission with the roles that hold it. Reading the brand's screens is open to every role but the cashier
 * (brand-wide figures a cashier has no use for: their dashboard is the till and their own account), except where a
 * screen shows secrets' metadata or other people (keys, webhooks, team, audit): those are for owners and admins.
 */
export const PERMISSIONS = {
  /**
   * The brand's screens, read only: the overview (meters against the plan, products counted, recent activity),
   * products and passports, imports, scans, NFC taps and tags, orders, branding, domain, plan and usage, the passport
   * archive. Brand-wide, so not a cashier's: their overview is the till (orders.confirm), and they keep their own
   * account (account.own).
   */
  "dashboard.read": ["owner", "admin", "editor", "viewer"],
  /** One's own account: sign out (of this browser or everywhere), change one's password. Even while the brand is suspended. */
  "account.own": ["owner", "admin", "editor", "cashier", "viewer"],
  /** Create, edit, import products; mark them lost, stolen or recovered. */
  "products.write": ["owner", "admin", "editor"],
  /** Mint a product's passport on chain (uses the certificate quota). */
  "certificates.issue": ["owner", "admin", "editor"],
  /** Link an NFC tag to a product (on chain); provision a batch of tags (their URL templates). */
  "tags.assign": ["owner", "admin", "editor"],
  /** Receive the SUN keys of NTAG 424 DNA tags when provisioning: with them anyone can make tags that pass as the brand's. */
  "tags.keys": ["owner", "admin"],
  /** Logo, colours, tagline, about, social links; the economic operator id (EORI or GLN) passports name. */
  "branding.write": ["owner", "admin"],
  /** Dashboard webhook URL and v1 subscriptions: create, test, redeliver, rotate secrets. */
  "webhooks.manage": ["owner", "admin"],
  /** API keys: create, rotate, revoke. */
  "keys.manage": ["owner", "admin"],
  /** Invite people, change roles, remove people; read the audit log. */
  "team.manage": ["owner", "admin"],
  /** Confirm a Cash QR payment at the till. */
  "orders.confirm": ["owner", "admin", "cashier"],
  /** Refund a paid order through its gateway. */
  "orders.refund": ["owner", "admin"],
  /** Gateway Keys: the brand's payment gateway credentials and which methods the scan page offers. */
  "payments.manage": ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/**
 * What a user of a suspended brand may still change: their own account. A suspended brand's sessions still read, so
 * whoever holds one must be able to end them all and change a password that may have leaked; nothing of the brand's.
 */
export const ALLOWED_WHILE_SUSPENDED: ReadonlySet<Permission> = new Set<Permission>(["account.own"]);

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/**
 * Whether `actor` may give `target` role (or take it away): only an owner makes or unmakes owners; an admin manages
 * admins and the roles below.
 */
export function mayManageRole(actor: Role, target: Role): boolean {
  if (actor === "owner") return true;
  return actor === "admin" && target !== "owner";
}
