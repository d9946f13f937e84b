// The brand's addresses: the subdomain every brand has, and (Growth and above) its own shop's domain, with the two
// DNS records to create, each verification step's last check, Check now and Remove.
import { useState } from "react";
import { Link } from "wouter";
import { api, dataOf } from "../../api/client";
import type { DataOf } from "../../api/types";
import { allows, useSession } from "../../session";
import { Badge } from "../../ui/badges";
import { ConfirmButton } from "../../ui/buttons";
import { TextField } from "../../ui/fields";
import { formatDateTime } from "../../ui/format";
import { useAction, useResource, type Action } from "../../ui/hooks";
import { ActionStatus, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { DnsRecords, StepList } from "./Verification";
import "./domain.css";

export type DomainOverview = DataOf<"/api/dashboard/domain", "get">;
export type CustomDomain = NonNullable<DomainOverview["custom_domain"]>;

/** The longest hostname DNS allows. */
const HOSTNAME_MAX = 253;

const STATUS: Record<CustomDomain["status"], { text: string; tone: "ok" | "warn" | "bad" }> = {
  pending: { text: "Waiting for DNS", tone: "warn" },
  verified: { text: "Verified", tone: "ok" },
  failed: { text: "Not verified", tone: "bad" },
  released: { text: "Held by another brand", tone: "bad" },
};

export function DomainScreen() {
  const session = useSession();
  const canWrite = allows(session, "branding.write");
  const overview = useResource(() => dataOf(api.GET("/api/dashboard/domain")), []);
  // Check now and Remove: announced here, so "removed" is still read out once the panel is gone.
  const action = useAction();
  const data = overview.data;

  return (
    <Page title="Domain" subtitle="Where shoppers find your brand: your subdomain, and your own shop's domain.">
      {overview.loading && !data && <Loading what="your domains" />}
      {overview.error && !data && <ErrorNotice error={overview.error} title="Your domains could not be loaded." />}
      {data && (
        <>
          <Section title="Your subdomain" id="subdomain">
            <p>
              <a href={data.subdomain.url} className="break">
                {data.subdomain.host}
              </a>
            </p>
            <p className="muted">Every plan has it. Its home page is your brand profile, and your passports open there; another brand's do not.</p>
          </Section>
          <Section title="Custom domain" id="custom-domain">
            {data.custom_domain ? (
              <CustomDomainPanel domain={data.custom_domain} canWrite={canWrite} action={action} onChanged={overview.setData} />
            ) : (
              <AddDomainForm allowed={data.custom_domain_allowed} plan={data.plan} canWrite={canWrite} onAdded={overview.setData} />
            )}
            <ActionStatus action={action} busyText="Working…" />
          </Section>
        </>
      )}
    </Page>
  );
}

function AddDomainForm({ allowed, plan, canWrite, onAdded }: { allowed: boolean; plan: string; canWrite: boolean; onAdded: (data: DomainOverview) => void }) {
  const [hostname, setHostname] = useState("");
  const add = useAction();
  const disabled = !allowed || !canWrite;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (disabled) return;
        void add.run(async () => {
          onAdded(await dataOf(api.POST("/api/dashboard/domain/custom", { body: { hostname: hostname.trim() } })));
          return "Custom domain added. Create the two DNS records below.";
        });
      }}
    >
      <p>Serve your passports and brand profile at your own shop's address, such as shop.example.com, with a certificate issued automatically.</p>
      <fieldset disabled={disabled} className="plain">
        <legend className="sr-only">Add a custom domain</legend>
        <TextField
          label="Your shop's hostname"
          hint="A name under your own domain (shop.example.com), not the domain itself: DNS allows a CNAME record only below it."
          autoComplete="off"
          spellCheck={false}
          inputMode="url"
          required
          maxLength={HOSTNAME_MAX + 1}
          placeholder="shop.example.com"
          value={hostname}
          onChange={(e) => setHostname(e.target.value)}
          error={add.error?.problemWith("hostname")}
        />
        <div className="actions">
          <button type="submit" aria-disabled={add.busy || undefined}>
            Add custom domain
          </button>
        </div>
      </fieldset>
      {!allowed && (
        <p className="notice" role="note">
          A custom domain comes with the Growth and Enterprise plans; your brand is on {plan[0]!.toUpperCase() + plan.slice(1)}. <Link href="/usage">See your plan</Link>.
        </p>
      )}
      {allowed && !canWrite && (
        <p className="notice" role="note">
          Your role cannot change the domain; an owner or admin of your brand can.
        </p>
      )}
      <ActionStatus action={add} busyText="Adding…" />
    </form>
  );
}

function CustomDomainPanel({ domain, canWrite, action, onChanged }: { domain: CustomDomain; canWrite: boolean; action: Action; onChanged: (data: DomainOverview) => void }) {
  const status = STATUS[domain.status];
  return (
    <>
      <p className="domain-status">
        <a href={domain.url} className="break">
          {domain.hostname}
        </a>{" "}
        <Badge tone={status.tone}>{status.text}</Badge>
      </p>
      {domain.status === "verified" && (
        <p>
          Shoppers reach your brand at this address{domain.url.startsWith("https:") ? ", over HTTPS" : ""}. Verified {formatDateTime(domain.verified_at)}.
        </p>
      )}
      {domain.status === "pending" && (
        <p>
          Create the two records below at your DNS provider. We check them automatically (next check {formatDateTime(domain.next_check_at)}) until{" "}
          {formatDateTime(domain.window_ends_at)}; DNS changes can take up to 24 hours to reach everyone.
        </p>
      )}
      {domain.status === "failed" && (
        <p role="note">
          {domain.failure_reason} Fix the records, then check again: that gives it another 24 hours.
        </p>
      )}
      {domain.status === "released" && <p role="note">{domain.failure_reason}</p>}
      {domain.status !== "verified" && <DnsRecords records={domain.records} />}
      <h3>Verification</h3>
      <StepList steps={domain.steps} />
      <p className="muted small">
        Using a DNS proxy service (such as Cloudflare's proxied records)? Keep the CNAME record DNS only until the domain is verified and its certificate
        issued, then you may turn proxying on.
      </p>
      {canWrite && (
        <div className="actions">
          {domain.status !== "verified" && (
            <button
              type="button"
              aria-disabled={action.busy || undefined}
              onClick={() =>
                void action.run(async () => {
                  const data = await dataOf(api.POST("/api/dashboard/domain/custom/check"));
                  onChanged(data);
                  return data.custom_domain?.status === "verified" ? "Verified: your brand is served at this address." : "Checked: see each step below.";
                })
              }
            >
              Check now
            </button>
          )}
          <ConfirmButton
            label="Remove custom domain"
            confirmLabel="Yes, remove it"
            disabled={action.busy}
            question={`${domain.hostname} stops showing your brand at once.`}
            onConfirm={() =>
              action.run(async () => {
                onChanged(await dataOf(api.DELETE("/api/dashboard/domain/custom")));
                return "Custom domain removed.";
              })
            }
          />
        </div>
      )}
    </>
  );
}
