// Issue 16: a passport's UNTP Digital Product Passport credential (VC 2.0), signed as VC-JOSE with the service's key.
// (Scaffold: the interop work implements it; the archive export calls it.)
import type { AppDeps } from "../deps";

export type PassportCredential = {
  /** The unsigned credential (application/ld+json body). */
  credential: Record<string, unknown>;
  /** The same credential signed as a compact JWS (application/vc+jwt body). */
  jwt: string;
};

/** The credential of a minted passport by UID; throws NotFoundError when there is no minted passport. */
export async function passportCredential(deps: AppDeps, uid: string): Promise<PassportCredential> {
  void deps;
  void uid;
  throw new Error("not implemented yet");
}
