// The badge's data: the public passport record, so "certified" means on the badge what it means everywhere else.
import type { AppDeps } from "../deps";
import { buildPublicRecord, type PublicRecord } from "./public-record";
import { publicPassport } from "./public-passport";

export async function badgeRecord(deps: AppDeps, uid: string): Promise<PublicRecord> {
  return buildPublicRecord(deps.config, await publicPassport(deps, uid));
}
