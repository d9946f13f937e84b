// The brand's NFC tags, newest first, a page at a time: chip, status, product, the last tap and its verdict, and
// how many of the tag's taps were authentic.
import { Link } from "wouter";
import { api, pageOf } from "../../api/client";
import type { DataOf } from "../../api/types";
import { Badge } from "../../ui/badges";
import { formatDateTime, formatNumber } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { Empty, ErrorNotice, Loading } from "../../ui/notices";
import { Pager } from "../../ui/Pager";
import { TableScroll } from "../../ui/TableScroll";
import { totalOf, VERDICTS } from "./verdicts";

type Tag = DataOf<"/api/dashboard/tags", "get">[number];

const PER_PAGE = 25;
const STATUS: Record<Tag["status"], { text: string; tone: "ok" | "neutral" | "warn" }> = {
  active: { text: "Active", tone: "ok" },
  unassigned: { text: "Not bound", tone: "neutral" },
  retired: { text: "Retired", tone: "warn" },
};
const VERDICT_TONE: Record<string, "ok" | "bad" | "warn" | "neutral"> = { authentic: "ok", replayed: "bad", invalid: "bad", not_bound: "warn" };

export function TagList({ page, onPage, generation }: { page: number; onPage: (page: number) => void; generation: number }) {
  const tags = useResource(() => pageOf(api.GET("/api/dashboard/tags", { params: { query: { page: String(page), per_page: String(PER_PAGE) } } })), [page, generation]);
  if (tags.loading && !tags.data) return <Loading what="your tags" />;
  if (tags.error) return <ErrorNotice error={tags.error} title="The tags could not be loaded." />;
  if (!tags.data) return null;
  if (tags.data.meta.total === 0) return <Empty>No tags yet. Provision a batch to get the file for your encoding station.</Empty>;
  return (
    <>
      <TableScroll label="Your tags">
        <table>
          <thead>
            <tr>
              <th scope="col">Tag</th>
              <th scope="col">Status</th>
              <th scope="col">Product</th>
              <th scope="col">Last tap</th>
              <th scope="col" className="num">
                Authentic taps
              </th>
            </tr>
          </thead>
          <tbody>
            {tags.data.data.map((tag) => {
              const verdict = tag.last_tap && VERDICTS.find((v) => v.key === tag.last_tap!.verdict);
              return (
                <tr key={tag.tag_uid}>
                  <th scope="row">
                    <span className="mono">{tag.tag_uid}</span>
                    <div className="muted small">{tag.chip === "NTAG424" ? `NTAG 424 DNA, keys v${tag.key_version ?? 1}` : "NTAG215"}</div>
                  </th>
                  <td>
                    <Badge tone={STATUS[tag.status].tone}>{STATUS[tag.status].text}</Badge>
                  </td>
                  <td>{tag.product_uid ? <Link href={`/products/${tag.product_uid}`}>{tag.product_uid}</Link> : <span className="muted">—</span>}</td>
                  <td>
                    {tag.last_tap ? (
                      <>
                        <Badge tone={VERDICT_TONE[tag.last_tap.verdict] ?? "neutral"}>{verdict?.label ?? tag.last_tap.verdict}</Badge>
                        <div className="muted small">
                          <time dateTime={tag.last_tap.at}>{formatDateTime(tag.last_tap.at)}</time>
                        </div>
                      </>
                    ) : (
                      <span className="muted">Never tapped</span>
                    )}
                  </td>
                  <td className="num">
                    {formatNumber(tag.taps.authentic)} <span className="muted small">of {formatNumber(totalOf(tag.taps))}</span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      <Pager page={tags.data.meta.page} perPage={tags.data.meta.per_page} total={tags.data.meta.total} noun="tags" onPage={onPage} />
    </>
  );
}
