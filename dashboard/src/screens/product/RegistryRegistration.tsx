// The passport's registration at the EU registry, as its EN 18222 header shows it (docs/registry.md): the state, the
// registry's id, and the proof's time and hash against the version's anchor.
import { api } from "../../api/client";
import { Badge } from "../../ui/badges";
import { HashValue } from "../../ui/chain";
import { formatDateTime } from "../../ui/format";
import { useResource } from "../../ui/hooks";

type Registration = {
  version: number;
  state: "queued" | "registered" | "failed";
  registryId: string | null;
  proof: { timestamp: string; dataHash: string } | null;
  error: string | null;
} | null;

const STATE = { registered: ["ok", "Registered"], queued: ["warn", "Queued"], failed: ["bad", "Failed"] } as const;

export function RegistryRegistration({ uid }: { uid: string }) {
  const read = useResource(async () => {
    const { data } = await api.GET("/api/dpp-lifecycle/v1/dppsByProductId/{productId}", { params: { path: { productId: uid } } });
    if (!data) return undefined;
    const passport = data as unknown as { registration?: Registration; anchor: { version: number | null; dataHash: string | null } };
    return { registration: passport.registration ?? null, anchor: passport.anchor };
  }, [uid]);
  if (!read.data) return null;
  const { registration, anchor } = read.data;
  return (
    <div>
      <dt>EU registry</dt>
      <dd>
        {!registration ? (
          <span className="muted">not registered (RegisterProductDPP, or the brand's automatic registration)</span>
        ) : (
          <>
            <Badge tone={STATE[registration.state][0]}>{STATE[registration.state][1]}</Badge> version {registration.version}
            {registration.registryId && <> · registry id {registration.registryId}</>}
            {registration.proof &&
              (registration.version === anchor.version && registration.proof.dataHash === anchor.dataHash ? (
                <> · proof of {formatDateTime(registration.proof.timestamp)} over the data hash on chain</>
              ) : (
                <>
                  {" "}
                  · proof of {formatDateTime(registration.proof.timestamp)} over an earlier version&apos;s hash <HashValue value={registration.proof.dataHash} />
                </>
              ))}
            {registration.error && <p className="muted">{registration.error}</p>}
          </>
        )}
      </dd>
    </div>
  );
}
