// Valid product rows in the dashboard's CSV import format (every column used), for the import benchmark and tests.

/** `count` valid product rows in the import's CSV format, every column used. */
export function productCsv(count: number, skuPrefix = "BENCH"): string {
  const lines = ["sku,name,category,price,currency,fabric_type,description,fiber_composition,certifications,care_instructions,country_of_manufacture"];
  for (let i = 0; i < count; i += 1) {
    lines.push(
      `${skuPrefix}-${i},"Bench Tee ${i}, organic",t-shirt,${(990 + (i % 100) / 4).toFixed(2)},BDT,organic cotton jersey,"Crew neck, 180 gsm",` +
        `cotton:95;elastane:5,GOTS:Control Union:CU-${i}:2027-01-01,Machine wash at 30 °C,BD`,
    );
  }
  return `${lines.join("\n")}\n`;
}
