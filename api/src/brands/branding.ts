// A brand's white-label settings (app.brands.branding): their bounds, the strict check applied when an operator
// sets them, and the lenient reading the pages use, which drops any stored value outside the bounds.
import { SLUG_PATTERN } from "./service";
import type { Knex } from "../db/knex";
import { NotFoundError, ValidationError, type ErrorDetail } from "../errors";
import { readBranding as readStoredBranding, writeBranding } from "./branding.repo";

/** Spec 1 and 8: tagline at most 120 characters, about text at most 500. */
export const TAGLINE_MAX = 120;
export const ABOUT_MAX = 500;
/** Longer than any real logo or profile address; keeps a stored value from bloating every page. */
export const URL_MAX = 500;

export type SocialLinks = { facebook?: string; instagram?: string; website?: string };

export type Branding = {
  logo_url?: string;
  primary_color?: string;
  secondary_color?: string;
  tagline?: string;
  about?: string;
  social?: SocialLinks;
};

export const BRANDING_FIELDS = ["logo_url", "primary_color", "secondary_color", "tagline", "about"] as const;
export const SOCIAL_FIELDS = ["facebook", "instagram", "website"] as const;

const COLOR = /^#[0-9A-Fa-f]{6}$/;
/**
 * A logo uploaded in the dashboard, served by this service (brands/logo.ts): a path, not a URL, so it shows on
 * whichever host serves the page (local http, the public https origin, later a brand's own domain).
 */
export const UPLOADED_LOGO_PATH = /^\/brand-assets\/[a-z0-9][a-z0-9-]{0,39}\/logo-[0-9a-f]{16}\.(?:png|webp)$/;
/** C0 and C1 controls other than tab and newline (which the about text may use for paragraphs). */
function hasControl(text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** Characters as a reader counts them (code points), not UTF-16 units. */
function length(text: string): number {
  return [...text].length;
}

function httpsUrlProblem(value: string, hosts?: string[]): string | undefined {
  if (value.length > URL_MAX) return `must have at most ${URL_MAX} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an https URL";
  }
  if (url.protocol !== "https:" || !url.hostname) return "must be an https URL";
  if (url.username || url.password) return "must not carry a user name or password";
  if (hosts && !hosts.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`))) {
    return `must be a link on ${hosts.join(" or ")}`;
  }
  return undefined;
}

/** The problem with one value of a top-level field, or undefined when it is within bounds. */
function fieldProblem(field: (typeof BRANDING_FIELDS)[number], value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  switch (field) {
    case "primary_color":
    case "secondary_color":
      return COLOR.test(value) ? undefined : "must be a HEX colour #RRGGBB";
    case "logo_url":
      return UPLOADED_LOGO_PATH.test(value) ? undefined : httpsUrlProblem(value);
    case "tagline":
      if (/[\n\t]/.test(value) || hasControl(value)) return "must be one line of text";
      return length(value) > TAGLINE_MAX ? `must have at most ${TAGLINE_MAX} characters` : undefined;
    case "about":
      if (hasControl(value)) return "must not contain control characters";
      return length(value) > ABOUT_MAX ? `must have at most ${ABOUT_MAX} characters` : undefined;
  }
}

function socialProblem(field: (typeof SOCIAL_FIELDS)[number], value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  if (field === "facebook") return httpsUrlProblem(value, ["facebook.com"]);
  if (field === "instagram") return httpsUrlProblem(value, ["instagram.com"]);
  return httpsUrlProblem(value);
}

/** Every problem of a branding object, by field (`social.website`); empty when all of it may be stored. */
export function brandingProblems(branding: Record<string, unknown>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const [key, value] of Object.entries(branding)) {
    if (key === "social") {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        problems.push({ field: "social", problem: "must be an object" });
        continue;
      }
      for (const [name, link] of Object.entries(value)) {
        const known = (SOCIAL_FIELDS as readonly string[]).includes(name);
        const problem = known ? socialProblem(name as (typeof SOCIAL_FIELDS)[number], link) : "is not a social link (facebook, instagram, website)";
        if (problem) problems.push({ field: `social.${name}`, problem });
      }
    } else if ((BRANDING_FIELDS as readonly string[]).includes(key)) {
      const problem = fieldProblem(key as (typeof BRANDING_FIELDS)[number], value);
      if (problem) problems.push({ field: key, problem });
    } else {
      problems.push({ field: key, problem: "is not a branding setting" });
    }
  }
  return problems;
}

/**
 * The branding as pages may show it: each stored value that breaks its bounds (edited by hand in the database) is
 * dropped rather than trusted, so a page never puts an unchecked colour into CSS or an unchecked link into href.
 */
export function readBranding(stored: unknown): Branding {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return {};
  const raw = stored as Record<string, unknown>;
  const branding: Branding = {};
  for (const field of BRANDING_FIELDS) {
    const value = raw[field];
    if (value !== undefined && fieldProblem(field, value) === undefined) branding[field] = normalise(field, value as string);
  }
  const social = raw.social;
  if (typeof social === "object" && social !== null && !Array.isArray(social)) {
    const links: SocialLinks = {};
    for (const field of SOCIAL_FIELDS) {
      const value = (social as Record<string, unknown>)[field];
      if (value !== undefined && socialProblem(field, value) === undefined) links[field] = value as string;
    }
    if (Object.keys(links).length > 0) branding.social = links;
  }
  return branding;
}

function normalise(field: (typeof BRANDING_FIELDS)[number], value: string): string {
  return field === "primary_color" || field === "secondary_color" ? value.toUpperCase() : value;
}

/**
 * A change to a brand's branding: a string sets a field, null removes it. Social links are changed one by one
 * under `social`.
 */
export type BrandingPatch = Partial<Record<(typeof BRANDING_FIELDS)[number], string | null>> & {
  social?: Partial<Record<(typeof SOCIAL_FIELDS)[number], string | null>>;
};

/** Applies `patch` to the brand's branding (to an empty one with `clear`), after checking the result. */
export async function setBranding(
  db: Knex,
  slug: string,
  patch: BrandingPatch,
  options: { clear?: boolean } = {},
): Promise<{ name: string; branding: Branding }> {
  const current = await getStoredBranding(db, slug);
  const next: Record<string, unknown> = options.clear ? {} : { ...current.branding };
  const social: Record<string, unknown> = options.clear ? {} : { ...((next.social as Record<string, unknown> | undefined) ?? {}) };
  for (const field of BRANDING_FIELDS) {
    const value = patch[field];
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value.trim();
  }
  for (const field of SOCIAL_FIELDS) {
    const value = patch.social?.[field];
    if (value === null) delete social[field];
    else if (value !== undefined) social[field] = value.trim();
  }
  if (Object.keys(social).length > 0) next.social = social;
  else delete next.social;

  const problems = brandingProblems(next);
  if (problems.length > 0) throw new ValidationError(problems, "The branding has invalid values.");
  const stored = readBranding(next);
  await writeBranding(db, current.brandId, stored);
  return { name: current.name, branding: stored };
}

/** The brand's branding as stored; NOT_FOUND for an unknown slug. */
export async function getStoredBranding(db: Knex, slug: string): Promise<{ brandId: number; name: string; branding: Record<string, unknown> }> {
  const found = SLUG_PATTERN.test(slug) ? await readStoredBranding(db, slug) : undefined;
  if (!found) throw new NotFoundError(`Brand "${slug}"`);
  return found;
}
