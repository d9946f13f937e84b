// NFC tags: provisioning a batch for the encoding station (roles that may assign tags) and the brand's tags with
// their last tap (every role).
import { useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { allows, useSession } from "../../session";
import { Forbidden } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { ProvisionForm } from "./ProvisionForm";
import { TagList } from "./TagList";
import "./taps.css";

export function TagsScreen() {
  const session = useSession();
  const [, navigate] = useLocation();
  const page = Math.max(1, Number(new URLSearchParams(useSearch()).get("page")) || 1);
  // Bumped after a batch is provisioned, so the list shows the new tags.
  const [generation, setGeneration] = useState(0);

  return (
    <Page title="NFC tags" subtitle={<Link href="/taps">Back to NFC taps</Link>}>
      <div className="taps">
        <Section title="Provision tags" id="provision">
          {allows(session, "tags.assign") ? <ProvisionForm onProvisioned={() => setGeneration((n) => n + 1)} /> : <Forbidden what="provisioning NFC tags" />}
        </Section>
        <Section title="Your tags" id="tag-list">
          <TagList page={page} generation={generation} onPage={(next) => navigate(next > 1 ? `/taps/tags?page=${next}` : "/taps/tags")} />
        </Section>
      </div>
    </Page>
  );
}
