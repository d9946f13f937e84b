// Operator commands on a brand's white-label settings (the spec's "brand editor"): set-branding and show-branding.
import {
  ABOUT_MAX,
  BRANDING_FIELDS,
  brandingProblems,
  getStoredBranding,
  readBranding,
  setBranding,
  SOCIAL_FIELDS,
  TAGLINE_MAX,
  type Branding,
  type BrandingPatch,
} from "../../api/src/brands/branding";
import { brandOption, requiredOption, stringOption, UsageError, type AdminCommand, type CommandContext, type OptionSpec } from "./command";

const flagOf = (field: string) => field.replace(/_/g, "-");

const FIELD_HELP: Record<(typeof BRANDING_FIELDS)[number] | (typeof SOCIAL_FIELDS)[number], string> = {
  logo_url: "https URL of the logo (PNG or WebP, at least 512x512, transparent; not fetched or checked)",
  primary_color: "#RRGGBB: header, buttons, accents",
  secondary_color: "#RRGGBB: highlights and badges",
  tagline: `at most ${TAGLINE_MAX} characters, below the brand name on scan pages`,
  about: `at most ${ABOUT_MAX} characters, on the profile page`,
  facebook: "https URL on facebook.com",
  instagram: "https URL on instagram.com",
  website: "https URL of the brand's website",
};

const setOptions: Record<string, OptionSpec> = {
  ...brandOption,
  ...Object.fromEntries(
    [...BRANDING_FIELDS, ...SOCIAL_FIELDS].map((field) => [flagOf(field), { type: "string", description: `${FIELD_HELP[field]}; "" removes it` }]),
  ),
  clear: { type: "boolean", description: "start from an empty branding (drops every setting not given)" },
};

/** The options given, as a patch: a value sets, an empty value removes, an absent option keeps. */
function patchOf(context: CommandContext): BrandingPatch {
  const value = (field: string): string | null | undefined => {
    const raw = stringOption(context, flagOf(field));
    if (raw === undefined) return undefined;
    return raw.trim() === "" ? null : raw;
  };
  const patch: BrandingPatch = {};
  for (const field of BRANDING_FIELDS) {
    const v = value(field);
    if (v !== undefined) patch[field] = v;
  }
  for (const field of SOCIAL_FIELDS) {
    const v = value(field);
    if (v !== undefined) (patch.social ??= {})[field] = v;
  }
  return patch;
}

function brandingText(slug: string, name: string, branding: Branding): string {
  const rows: Array<[string, string | undefined]> = [
    ["logo_url", branding.logo_url],
    ["primary_color", branding.primary_color],
    ["secondary_color", branding.secondary_color],
    ["tagline", branding.tagline],
    ["about", branding.about],
    ["facebook", branding.social?.facebook],
    ["instagram", branding.social?.instagram],
    ["website", branding.social?.website],
  ];
  return [`${slug} (${name}): profile page /brand/${slug}`, ...rows.map(([key, value]) => `  ${key.padEnd(16)} ${value ?? "(not set)"}`)].join("\n");
}

const setBrandingCommand: AdminCommand = {
  name: "set-branding",
  summary: "set a brand's white-label settings shown on its scan, certificate and profile pages",
  options: setOptions,
  async run(context) {
    const slug = requiredOption(context, "brand");
    const patch = patchOf(context);
    const clear = context.options.clear === true;
    if (!clear && Object.keys(patch).length === 0) {
      throw new UsageError(`give at least one setting (${[...BRANDING_FIELDS, ...SOCIAL_FIELDS].map((f) => `--${flagOf(f)}`).join(", ")}) or --clear`);
    }
    const { name, branding } = await setBranding(context.db, slug, patch, { clear });
    return { text: `Branding set.\n${brandingText(slug, name, branding)}`, json: { slug, branding } };
  },
};

const showBrandingCommand: AdminCommand = {
  name: "show-branding",
  summary: "show a brand's white-label settings",
  options: brandOption,
  async run(context) {
    const slug = requiredOption(context, "brand");
    const stored = await getStoredBranding(context.db, slug);
    // What the pages show: a stored value outside the bounds (edited by hand) is listed as ignored.
    const branding = readBranding(stored.branding);
    const problems = brandingProblems(stored.branding);
    const ignored = problems.map((p) => `\n  ignored by the pages: ${p.field} ${p.problem}`).join("");
    return { text: `${brandingText(slug, stored.name, branding)}${ignored}`, json: { slug, branding, stored: stored.branding } };
  },
};

export const commands: AdminCommand[] = [setBrandingCommand, showBrandingCommand];
