// The badge's data: the public passport record, so "certified" means on the badge what it means everywhere else.
import type { AppDeps } from "../../app";
import type { PublicRecord } from "../../pages/scan";
import { presentPublicPassport } from "../dpp/presenter";
import { publicPassport } from "../dpp/service";

export async function badgeRecord(deps: AppDeps, uid: string): Promise<PublicRecord> {
  return presentPublicPassport(deps.config, await publicPassport(deps, uid));
}
