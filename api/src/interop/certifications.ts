// The certification codes a passport names (the factory registry's and those brands declare), as UNTP conformity
// claims need them: the standard, the body that issues it, and the UNTP conformity topic it is chiefly about.

type StandardOf = { name: string; body: { id: string; name: string } };

/** The registry's certification codes (contracts/IFactoryRegistry.sol) and the standards they stand for. */
export const CERTIFICATION_STANDARDS: Readonly<Record<string, StandardOf>> = {
  GOTS: { name: "Global Organic Textile Standard", body: { id: "https://global-standard.org", name: "Global Standard gGmbH" } },
  "OEKO-TEX": { name: "OEKO-TEX Standard 100", body: { id: "https://www.oeko-tex.com", name: "OEKO-TEX Association" } },
  ISO9001: { name: "ISO 9001 Quality management systems", body: { id: "https://www.iso.org", name: "International Organization for Standardization" } },
  GRS: { name: "Global Recycled Standard", body: { id: "https://textileexchange.org", name: "Textile Exchange" } },
  BCI: { name: "Better Cotton Standard", body: { id: "https://bettercotton.org", name: "Better Cotton" } },
  SA8000: { name: "SA8000 Standard", body: { id: "https://sa-intl.org", name: "Social Accountability International" } },
  bluesign: { name: "bluesign criteria", body: { id: "https://www.bluesign.com", name: "bluesign technologies ag" } },
};

/**
 * UNTP 0.6.0 conformity topics (its `conformityTopic` enumeration). A standard usually covers several; this is the
 * one it is chiefly about. A code not listed is a compliance claim.
 */
const TOPICS: Readonly<Record<string, string>> = {
  GOTS: "environment.biodiversity",
  "OEKO-TEX": "social.safety",
  ISO9001: "governance.compliance",
  GRS: "circularity.content",
  BCI: "environment.water",
  SA8000: "social.labour",
  bluesign: "environment.water",
};

export function conformityTopicOf(code: string): string {
  return TOPICS[code] ?? "governance.compliance";
}
