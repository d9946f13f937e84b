// The passport the landing page offers as a demo: the newest minted one, with the public links to open it by.
import type { AppDeps } from "../deps";
import { productLinks } from "../links";
import { latestMintedPassport } from "./showcase.repo";

/** A minted passport to look at: its scan page, certificate page and JSON record. */
export type ShowcasePassport = { uid: string; name: string; brandName: string; scanUrl: string; certificateUrl: string; recordUrl: string };

/** The newest minted passport of an active brand, or undefined while nothing is minted. */
export async function showcasePassport(deps: Pick<AppDeps, "db" | "config">): Promise<ShowcasePassport | undefined> {
  const passport = await latestMintedPassport(deps.db);
  if (!passport) return undefined;
  // The landing page shows it as the registry's own demo: on the main site.
  const links = productLinks(deps.config, passport.uid, null);
  return { ...passport, scanUrl: links.scan_url, certificateUrl: links.certificate_url, recordUrl: links.dpp_url };
}
