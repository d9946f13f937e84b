// The JSON of a checked tap (GET /api/scan/{uid}): the verdict, its words for a shopper, the tag if one verified,
// and the passport's standing on chain. The tag's UID is never shown: the tag encrypts it so a URL does not track.
import type { PassportPage } from "../../passports/passport-page";
import type { TapCheck } from "../../tags/verification";
import { shopperWords } from "../../tags/verdicts";

export function presentScanVerdict(view: PassportPage, tap: TapCheck) {
  const words = shopperWords(tap.verdict, view.brand.name);
  return {
    uid: view.record.uid,
    verdict: tap.verdict,
    headline: words.headline,
    message: words.detail,
    tag: tap.chip !== null && tap.counter !== null ? { chip: tap.chip, counter: tap.counter } : null,
    passport: {
      verified: view.record.blockchain.verified,
      status: view.record.blockchain.passport_status,
      dpp_url: view.record.links.dpp_url,
    },
  };
}
