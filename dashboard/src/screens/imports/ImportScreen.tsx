// CSV import of products: the template, the upload (its progress from XMLHttpRequest), then the processing progress
// polled from GET /api/dashboard/imports/:id, the summary, the failed rows as a CSV to fix and upload again, and
// "Issue all": the passports of every imported product minted by one bulk issuance, its progress polled.
import { useCallback, useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { api, dataOf, uploadWithProgress, type ApiError } from "../../api/client";
import type { DataOf, Import } from "../../api/types";
import { Field } from "../../ui/fields";
import { formatDateTime, formatNumber } from "../../ui/format";
import { focusFirstInvalid, useAction, useResource } from "../../ui/hooks";
import { ActionStatus, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";

/** The API's bound on an import file. */
const MAX_BYTES = 10 * 1024 * 1024;
const POLL_MS = 1000;

type BulkIssuance = DataOf<"/api/dashboard/issuances/{id}", "get">;

export function ImportScreen({ importId }: { importId?: string }) {
  return (
    <Page title={importId ? "Product import" : "Import products from CSV"} subtitle={<Link href="/products">Back to products</Link>}>
      {importId ? <ImportProgress id={importId} /> : <UploadForm />}
    </Page>
  );
}

function UploadForm() {
  const [, navigate] = useLocation();
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<{ loaded: number; total: number }>();
  const [fileProblem, setFileProblem] = useState<string>();
  const upload = useAction();
  const percent = sent && sent.total ? Math.round((sent.loaded / sent.total) * 100) : 0;

  return (
    <>
      <Section title="1. Start from the template" id="template">
        <p>
          One product a row, with a header row of field names. Fibre composition is written <code>cotton:95;elastane:5</code>; certifications{" "}
          <code>GOTS:issuer:number:2027-01-01</code>, several separated by <code>;</code>. A <code>gtin</code> with a <code>serial</code> names one
          item and may be used once; a <code>lot</code> or <code>serial</code> needs a GTIN. At most 20,000 rows and 10 MB.
        </p>
        <p>
          The textile passport&apos;s columns, from <code>production_date</code> to <code>image_urls</code>, may be left empty. The template fills them
          for a garment made in five stages: one column per stage, written <code>Facility | country | gln:… | started | completed</code>, and
          materials written <code>polyester 60% CN recycled 100% post-consumer; cotton 40% IN</code>. A cell that cannot be read fails its row, and
          the failed rows&apos; file says which cell and why.
        </p>
        <a className="button secondary" href="/api/dashboard/imports/template.csv" download="products-template.csv">
          Download the CSV template
        </a>
      </Section>
      <Section title="2. Upload your file" id="upload">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!file) {
              setFileProblem("Choose a CSV file first.");
              focusFirstInvalid(event.currentTarget);
              return;
            }
            if (file.size > MAX_BYTES) {
              setFileProblem(`The file has ${formatNumber(Math.round(file.size / 1024))} KB; the limit is 10 MB.`);
              focusFirstInvalid(event.currentTarget);
              return;
            }
            setFileProblem(undefined);
            setSent({ loaded: 0, total: file.size });
            void upload.run(async () => {
              const started = await uploadWithProgress<Import>("/api/dashboard/imports", file, "text/csv", (loaded, total) => setSent({ loaded, total }));
              navigate(`/imports/${started.id}`);
            });
          }}
        >
          <Field label="CSV file" hint="Comma-separated, UTF-8, first row the field names" error={fileProblem}>
            {(a11y) => <input type="file" accept=".csv,text/csv" {...a11y} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />}
          </Field>
          {sent && (
            <div className="progress-field">
              <label htmlFor="upload-progress">
                Upload: {percent}% of {formatNumber(Math.max(1, Math.round(sent.total / 1024)))} KB
              </label>
              <progress id="upload-progress" max={100} value={percent}>
                {percent}%
              </progress>
            </div>
          )}
          <ActionStatus action={upload} busyText="Uploading…" />
          <button type="submit" aria-disabled={upload.busy || undefined}>
            Upload and import
          </button>
        </form>
      </Section>
    </>
  );
}

function ImportProgress({ id }: { id: string }) {
  const job = useResource(() => dataOf(api.GET("/api/dashboard/imports/{id}", { params: { path: { id } } })), [id]);
  const data = job.data;
  const running = data?.status === "running";

  useEffect(() => {
    if (!running) return;
    const timer = window.setTimeout(job.reload, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [running, data, job.reload]);

  if (!data) return job.error ? <ErrorNotice error={job.error} title="The import could not be loaded." /> : <Loading what="the import" />;

  const percent = data.total ? Math.round((data.processed / data.total) * 100) : running ? 0 : 100;
  return (
    <>
      <Section title={running ? "Importing…" : data.status === "done" ? "Import finished" : "Import failed"} id="import-state">
        <div className="progress-field">
          <label htmlFor="import-progress">
            Processed {formatNumber(data.processed)} of {formatNumber(data.total)} rows ({percent}%)
          </label>
          <progress id="import-progress" max={100} value={percent}>
            {percent}%
          </progress>
        </div>
        <div role="status" className="live">
          {!running && (
            <p className={data.failed ? "notice" : "notice success"}>
              {data.status === "failed" ? "The import stopped. " : "The import is finished. "}
              {formatNumber(data.imported)} {data.imported === 1 ? "product was" : "products were"} imported
              {data.failed ? `, ${formatNumber(data.failed)} ${data.failed === 1 ? "row" : "rows"} failed.` : "."}
            </p>
          )}
        </div>
        <dl className="stats">
          <div>
            <dt>Rows</dt>
            <dd>{formatNumber(data.total)}</dd>
          </div>
          <div>
            <dt>Imported</dt>
            <dd>{formatNumber(data.imported)}</dd>
          </div>
          <div>
            <dt>Failed</dt>
            <dd>{formatNumber(data.failed)}</dd>
          </div>
        </dl>
        <p className="muted">
          Started {formatDateTime(data.created_at)}
          {data.finished_at ? `, finished ${formatDateTime(data.finished_at)}` : ""}.
        </p>
        <div className="actions">
          {data.errors_url && data.failed > 0 && (
            <a className="button secondary" href={data.errors_url} download={`import-${data.id}-errors.csv`}>
              Download the failed rows (CSV)
            </a>
          )}
          {!running && (
            <>
              <Link href="/products" className="button">
                See the products
              </Link>
              <Link href="/imports" className="button secondary">
                Import another file
              </Link>
            </>
          )}
        </div>
      </Section>
      {data.status === "done" && data.imported > 0 && <IssueAll importId={data.id} products={data.imported} />}
    </>
  );
}

/** "Issue all": starts the bulk issuance of the import's products (or shows the one started before) and its progress. */
function IssueAll({ importId, products }: { importId: string; products: number }) {
  const [job, setJob] = useState<BulkIssuance | null>();
  const [loadError, setLoadError] = useState<ApiError>();
  const start = useAction();

  // No issuance of this import yet (null): the button is offered.
  const load = useCallback(async () => {
    setJob(await dataOf(api.GET("/api/dashboard/imports/{id}/issuance", { params: { path: { id: importId } } })));
  }, [importId]);

  useEffect(() => {
    void load().catch((error: ApiError) => setLoadError(error));
  }, [load]);

  const active = job && job.state !== "completed";
  useEffect(() => {
    if (!active) return;
    const timer = window.setTimeout(() => {
      void dataOf(api.GET("/api/dashboard/issuances/{id}", { params: { path: { id: job.id } } })).then(setJob, (error: ApiError) => setLoadError(error));
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [active, job]);

  if (loadError) return <ErrorNotice error={loadError} title="The passports' issuance could not be loaded." />;
  if (job === undefined) return <Loading what="the passports' issuance" />;
  if (job === null) {
    return (
      <Section title="Passports" id="passports">
        <p>
          Mint the blockchain passport of all {formatNumber(products)} imported {products === 1 ? "product" : "products"} at once. Each counts one
          certificate against the monthly quota; one issued before costs nothing.
        </p>
        <ActionStatus action={start} busyText="Starting…" />
        <button
          type="button"
          aria-disabled={start.busy || undefined}
          onClick={() => void start.run(async () => setJob(await dataOf(api.POST("/api/dashboard/imports/{id}/issue", { params: { path: { id: importId } } }))))}
        >
          Issue all {formatNumber(products)} passports
        </button>
      </Section>
    );
  }

  const done = job.confirmed + job.failed;
  const percent = job.total ? Math.floor((done / job.total) * 100) : 100;
  return (
    <Section title={job.state === "completed" ? "Passports issued" : "Issuing passports…"} id="passports">
      <div className="progress-field">
        <label htmlFor="issuance-progress">
          {formatNumber(job.confirmed)} of {formatNumber(job.total)} passports confirmed on chain, {formatNumber(job.minted)} minted ({percent}%)
        </label>
        <progress id="issuance-progress" max={100} value={percent}>
          {percent}%
        </progress>
      </div>
      <div role="status" className="live">
        {job.state === "completed" && (
          <p className={job.failed ? "notice" : "notice success"}>
            {formatNumber(job.confirmed)} {job.confirmed === 1 ? "passport is" : "passports are"} confirmed on chain
            {job.failed ? `; ${formatNumber(job.failed)} could not be issued (the monthly certificate limit, or the chain refused them).` : "."}
          </p>
        )}
      </div>
      <dl className="stats">
        <div>
          <dt>Claimed</dt>
          <dd>{formatNumber(job.claimed)}</dd>
        </div>
        <div>
          <dt>Minted</dt>
          <dd>{formatNumber(job.minted)}</dd>
        </div>
        <div>
          <dt>Confirmed</dt>
          <dd>{formatNumber(job.confirmed)}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{formatNumber(job.failed)}</dd>
        </div>
      </dl>
    </Section>
  );
}
