// Warranty terms by category (English). Documented in docs/brand-api.md ("Warranty"); a brand's own terms replace them later.

export type Warranty = { months: number; type: string; termsEn: string };

const GARMENT: Warranty = {
  months: 6,
  type: "manufacturing_defects",
  termsEn:
    "Covers defects in materials and workmanship (seams, zips, buttons, colour fastness when cared for as labelled) " +
    "for 6 months from purchase. Normal wear, misuse and alterations are not covered. Keep the NFC tag: it is your " +
    "proof of authenticity and purchase.",
};

const BY_CATEGORY: Readonly<Record<string, Warranty>> = {
  jacket: { ...GARMENT, months: 12, termsEn: GARMENT.termsEn.replace("6 months", "12 months") },
  outerwear: { ...GARMENT, months: 12, termsEn: GARMENT.termsEn.replace("6 months", "12 months") },
  jeans: { ...GARMENT, months: 12, termsEn: GARMENT.termsEn.replace("6 months", "12 months") },
  denim: { ...GARMENT, months: 12, termsEn: GARMENT.termsEn.replace("6 months", "12 months") },
  workwear: { ...GARMENT, months: 12, termsEn: GARMENT.termsEn.replace("6 months", "12 months") },
  saree: {
    months: 3,
    type: "weaving_defects",
    termsEn:
      "Covers weaving faults, loose zari and dye defects present at purchase, reported within 3 months. Hand-woven " +
      "irregularities are a feature of the craft, not a defect.",
  },
  electronics: {
    months: 24,
    type: "legal_guarantee",
    termsEn:
      "24-month legal guarantee of conformity from delivery: the seller repairs or replaces goods that do not conform " +
      "to the contract, at no cost to the buyer.",
  },
  footwear: { ...GARMENT, months: 12, termsEn: GARMENT.termsEn.replace("6 months", "12 months") },
};

export function warrantyFor(category: string): Warranty {
  return BY_CATEGORY[category.trim().toLowerCase()] ?? GARMENT;
}
