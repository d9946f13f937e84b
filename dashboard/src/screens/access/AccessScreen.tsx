// Passport access (docs/access.md): the reads of the brand's passports above the public (who, which passport, which
// elements, when), the reader keys the brand gives partners with a legitimate interest (issue, revoke), and the
// class of every element with the brand's restrictions.
import { useState } from "react";
import { api, dataOf, done, pageOf } from "../../api/client";
import { Badge } from "../../ui/badges";
import { ConfirmButton } from "../../ui/buttons";
import { SelectField, TextField } from "../../ui/fields";
import { formatDateTime } from "../../ui/format";
import { useAction, useResource } from "../../ui/hooks";
import { ActionStatus, Empty, ErrorNotice, Loading } from "../../ui/notices";
import { OneTimeSecret } from "../../ui/OneTimeSecret";
import { Page, Section } from "../../ui/Page";
import { Pager } from "../../ui/Pager";
import { TableScroll } from "../../ui/TableScroll";

const PER_PAGE = 25;
const READER_TYPES = ["repairer", "recycler", "remanufacturer", "market-actor", "researcher", "other"] as const;
const CLASS_TEXT = { public: "Public", "legitimate-interest": "Legitimate interest", authority: "Authorities" } as const;
const KIND_TEXT = { reader_key: "Reader key", credential: "Role credential", authority_key: "Authority key" } as const;

export function AccessScreen() {
  return (
    <Page title="Passport access" subtitle="Who read what your passports do not show the public, the keys you gave partners, and each element's class.">
      <AccessLog />
      <ReaderKeys />
      <Classes />
    </Page>
  );
}

function AccessLog() {
  const [page, setPage] = useState(1);
  const log = useResource(() => pageOf(api.GET("/api/dashboard/access/log", { params: { query: { page: String(page), per_page: String(PER_PAGE) } } })), [page]);
  return (
    <Section title="Reads above the public" id="access-log">
      {log.loading && !log.data && <Loading what="the access log" />}
      {log.error && <ErrorNotice error={log.error} title="The access log could not be loaded." />}
      {log.data && log.data.data.length === 0 && <Empty>No one has read your passports above the public yet.</Empty>}
      {log.data && log.data.data.length > 0 && (
        <>
          <TableScroll label="Access log">
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Reader</th>
                  <th scope="col">Passport</th>
                  <th scope="col">Read</th>
                  <th scope="col">Elements shown</th>
                </tr>
              </thead>
              <tbody>
                {log.data.data.map((entry) => (
                  <tr key={entry.id}>
                    <td>
                      <time dateTime={entry.read_at}>{formatDateTime(entry.read_at)}</time>
                    </td>
                    <th scope="row">
                      {entry.reader_label ?? entry.reader_id}
                      <div className="small muted">
                        {KIND_TEXT[entry.reader_kind]}
                        {entry.reader_type ? `, ${entry.reader_type}` : ""} · {CLASS_TEXT[entry.reader_class]}
                        {entry.reader_kind === "credential" ? ` · issued by ${entry.reader_id}` : ""}
                      </div>
                    </th>
                    <td className="mono">{entry.uid}</td>
                    <td>
                      <code>{entry.operation}</code>
                    </td>
                    <td className="break small">{entry.elements.length > 0 ? entry.elements.join(", ") : "none above public"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager page={page} perPage={PER_PAGE} total={log.data.meta.total} noun="reads" onPage={setPage} />
        </>
      )}
    </Section>
  );
}

function ReaderKeys() {
  const keys = useResource(() => dataOf(api.GET("/api/dashboard/access/reader-keys")), []);
  const [label, setLabel] = useState("");
  const [readerType, setReaderType] = useState<(typeof READER_TYPES)[number]>("repairer");
  const [issued, setIssued] = useState<{ label: string; key: string }>();
  const create = useAction();
  const act = useAction();
  return (
    <Section title="Reader keys" id="reader-keys">
      <p className="muted">
        A partner with a legitimate interest (your repairer, a recycler) reads your passports with its key as <code>Authorization: Bearer …</code>, and sees
        what the public does not. Every such read is logged above.
      </p>
      {issued && <OneTimeSecret title={`Reader key “${issued.label}”`} value={issued.key} onDismiss={() => setIssued(undefined)} />}
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void create.run(async () => {
            const made = await dataOf(api.POST("/api/dashboard/access/reader-keys", { body: { label: label.trim(), reader_type: readerType } }));
            setIssued({ label: made.key.label, key: made.reader_key });
            setLabel("");
            keys.reload();
            return "Reader key issued: copy it now.";
          });
        }}
      >
        <TextField label="Who holds it" maxLength={100} placeholder="e.g. Dhaka Repair Co." value={label} onChange={(e) => setLabel(e.target.value)} error={create.error?.problemWith("label")} />
        <SelectField label="Reader type" value={readerType} onChange={(e) => setReaderType(e.target.value as (typeof READER_TYPES)[number])}>
          {READER_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
        <button type="submit" aria-disabled={create.busy || undefined}>
          Issue reader key
        </button>
      </form>
      <ActionStatus action={create} busyText="Issuing…" />
      <ActionStatus action={act} />
      {keys.loading && !keys.data && <Loading what="reader keys" />}
      {keys.error && <ErrorNotice error={keys.error} title="The reader keys could not be loaded." />}
      {keys.data && keys.data.length === 0 && <Empty>No reader keys yet.</Empty>}
      {keys.data && keys.data.length > 0 && (
        <TableScroll label="Reader keys">
          <table>
            <thead>
              <tr>
                <th scope="col">Holder</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id}>
                  <th scope="row">
                    {key.label}
                    <div className="mono small">{key.prefix}…</div>
                  </th>
                  <td>{key.reader_type}</td>
                  <td>
                    <Badge tone={key.state === "active" ? "ok" : "bad"}>{key.state === "active" ? "Active" : `Revoked ${formatDateTime(key.revoked_at)}`}</Badge>
                  </td>
                  <td>{key.last_used_at ? formatDateTime(key.last_used_at) : "Never"}</td>
                  <td>
                    {key.state === "active" && (
                      <ConfirmButton
                        label="Revoke"
                        context={`reader key ${key.label}`}
                        confirmLabel="Yes, revoke now"
                        question={`Reads with ${key.prefix}… are refused from now on.`}
                        disabled={act.busy}
                        onConfirm={() =>
                          act.run(async () => {
                            await done(api.DELETE("/api/dashboard/access/reader-keys/{id}", { params: { path: { id: String(key.id) } } }));
                            keys.reload();
                            return `Reader key ${key.label} revoked.`;
                          })
                        }
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}

function Classes() {
  const classes = useResource(() => dataOf(api.GET("/api/dashboard/access")), []);
  const above = classes.data?.elements.filter((e) => e.class !== "public") ?? [];
  // Outermost only: `textile.durability`, not each of its fields too, unless a field's class differs from it.
  const restricted = above.filter((e) => !above.some((outer) => e.element.startsWith(`${outer.element}.`) && outer.class === e.class));
  return (
    <Section title="What each reader sees" id="access-classes">
      <p className="muted">
        Elements not listed here are public (as is everything inside a listed one). Restrictions are set through the API (<code>PUT /api/dashboard/access/overrides</code>); elements the law
        requires public cannot be restricted. docs/access.md gives every element's class and its source.
      </p>
      {classes.loading && !classes.data && <Loading what="the access classes" />}
      {classes.error && <ErrorNotice error={classes.error} title="The access classes could not be loaded." />}
      {classes.data && (
        <TableScroll label="Elements above the public">
          <table>
            <thead>
              <tr>
                <th scope="col">Element, and why</th>
                <th scope="col">Shown to</th>
              </tr>
            </thead>
            <tbody>
              {restricted.map((element) => (
                <tr key={element.element}>
                  <th scope="row">
                    <code>{element.element}</code>
                    <div className="small muted break">{element.source}</div>
                  </th>
                  <td>
                    {CLASS_TEXT[element.class]}
                    {element.restricted_by_brand ? <div className="small muted">restricted by you (default: {CLASS_TEXT[element.default_class]})</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}
