// A custom domain's verification as the brand acts on it: the two DNS records to create (each value copyable), and
// each step's last check in words, its state said in text as well as colour.
import type { CustomDomain } from "./DomainScreen";
import { Badge } from "../../ui/badges";
import { CopyButton } from "../../ui/buttons";
import { formatDateTime } from "../../ui/format";

const RECORD_PURPOSE: Record<CustomDomain["records"][number]["type"], string> = {
  CNAME: "points your hostname at our servers",
  TXT: "proves the hostname is yours",
};

export function DnsRecords({ records }: { records: CustomDomain["records"] }) {
  return (
    <>
      <h3>DNS records to create</h3>
      <ul className="plain-list dns-records">
        {records.map((record) => (
          <li key={record.type}>
            <dl className="facts">
              <div>
                <dt>Type</dt>
                <dd>
                  <strong>{record.type}</strong> <span className="muted">({RECORD_PURPOSE[record.type]})</span>
                </dd>
              </div>
              <div>
                <dt>Name</dt>
                <dd>
                  <code className="break">{record.name}</code> <CopyButton value={record.name} label={`Copy ${record.type} name`} />
                </dd>
              </div>
              <div>
                <dt>Value</dt>
                <dd>
                  <code className="break">{record.value}</code> <CopyButton value={record.value} label={`Copy ${record.type} value`} />
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

const STEP_NAMES = { cname: "CNAME record", txt: "TXT record" } as const;
const STEP_STATUS = {
  passed: { text: "Passed", tone: "ok" },
  failed: { text: "Not yet", tone: "bad" },
  not_checked: { text: "Not checked yet", tone: "neutral" },
} as const;

export function StepList({ steps }: { steps: CustomDomain["steps"] }) {
  return (
    <ul className="plain-list">
      {(["cname", "txt"] as const).map((key) => {
        const step = steps[key];
        const status = STEP_STATUS[step.status];
        return (
          <li key={key}>
            <div>
              <strong>{STEP_NAMES[key]}</strong> <Badge tone={status.tone}>{status.text}</Badge>
              {step.detail && <p className="step-detail">{step.detail}</p>}
            </div>
            <span className="muted small">{step.checked_at ? `Checked ${formatDateTime(step.checked_at)}` : "Not checked yet"}</span>
          </li>
        );
      })}
    </ul>
  );
}
