// Shapes the badge JSON: the few facts the embeddable badge shows.
import { CARBON_LABELS, ratingOf } from "../../pages/carbon";
import type { PublicRecord } from "../../passports/public-record";

export function presentBadge(record: PublicRecord) {
  const rating = ratingOf(record.content.carbon.rating, record.content.carbon.kg_co2e);
  return {
    uid: record.uid,
    carbon_rating: rating,
    carbon_label: CARBON_LABELS[rating],
    carbon_kg: record.content.carbon.kg_co2e,
    certified: record.blockchain.verified,
    certificate_url: record.links.certificate_url,
  };
}
