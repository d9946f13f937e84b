// Gateway Keys: whether the brand sells on its scan pages at all, then one card per way to pay with what the plan
// allows, what is configured (masked), whether shoppers are offered it, and the form to change or remove its keys.
import { Link } from "wouter";
import { api, dataOf } from "../../api/client";
import type { DataOf } from "../../api/types";
import { useAction, useResource } from "../../ui/hooks";
import { ActionStatus, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { MethodCard } from "./MethodCard";

export type GatewayKeys = DataOf<"/api/dashboard/gateway-keys", "get">;

export function GatewayKeysScreen() {
  const keys = useResource(() => dataOf(api.GET("/api/dashboard/gateway-keys")), []);
  const data = keys.data;

  return (
    <Page title="Gateway keys" subtitle="How shoppers pay on your scan pages. Keys are checked with the gateway when saved and stored encrypted.">
      {keys.loading && !data && <Loading what="your payment settings" />}
      {keys.error && <ErrorNotice error={keys.error} title="The payment settings could not be loaded." />}
      {data && (
        <>
          <SalesSwitch
            enabled={data.sales_enabled}
            offered={data.methods.some((m) => m.allowed_by_plan && m.configured && m.enabled)}
            onChanged={keys.reload}
          />
          <div className="grid">
            {data.methods.map((method) => (
              <MethodCard key={method.method} method={method} plan={data.plan} onChanged={keys.reload} />
            ))}
          </div>
        </>
      )}
    </Page>
  );
}

function SalesSwitch({ enabled, offered, onChanged }: { enabled: boolean; offered: boolean; onChanged: () => void }) {
  const sales = useAction();
  return (
    <Section title="Sales" id="sales">
      <p>
        <strong>{enabled ? "Sales are on." : "Sales are off."}</strong>{" "}
        {enabled
          ? "Scan pages of products with a price show a Buy section with the ways to pay that are enabled below."
          : "Scan pages show no Buy section. Configure at least one way to pay below, then turn sales on."}
      </p>
      {enabled && !offered && (
        <p className="notice" role="note">
          No way to pay is configured and enabled yet, so shoppers cannot buy anything.
        </p>
      )}
      <p className="muted small">
        Only products with a price above zero are offered; set prices on their <Link href="/products">product pages</Link>.
      </p>
      <ActionStatus action={sales} busyText={enabled ? "Turning sales off…" : "Turning sales on…"} />
      <div className="actions">
        <button
          type="button"
          className={enabled ? "secondary" : undefined}
          aria-disabled={sales.busy || undefined}
          onClick={() =>
            void sales.run(async () => {
              await dataOf(api.PUT("/api/dashboard/sales", { body: { enabled: !enabled } }));
              onChanged();
              return enabled ? "Sales are off." : "Sales are on.";
            })
          }
        >
          {enabled ? "Turn sales off" : "Turn sales on"}
        </button>
      </div>
    </Section>
  );
}
