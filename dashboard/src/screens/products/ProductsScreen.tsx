// The brand's products: search and filters (kept in the address, so Back and shared links work), paging, and for
// editors the create form and the way to a CSV import.
import { useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { api, pageOf } from "../../api/client";
import type { paths } from "../../api/schema";
import { allows, useSession } from "../../session";
import { ChainStatusBadge, PassportBadge } from "../../ui/badges";
import { SelectField, TextField } from "../../ui/fields";
import { formatDateTime, formatNumber } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { Empty, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { Pager } from "../../ui/Pager";
import { CreateProductForm } from "./CreateProductForm";
import { TableScroll } from "../../ui/TableScroll";

const PER_PAGE = 25;
type StatusFilter = NonNullable<NonNullable<paths["/api/dashboard/products"]["get"]["parameters"]["query"]>["status"]>;
const STATUSES: { value: StatusFilter | ""; label: string }[] = [
  { value: "", label: "Any status" },
  { value: "unissued", label: "Not issued" },
  { value: "pending", label: "Pending on chain" },
  { value: "verified", label: "Verified" },
  { value: "lost", label: "Lost" },
  { value: "stolen", label: "Stolen" },
];

function statusFilter(value: string | null): StatusFilter | "" {
  return STATUSES.find((status) => status.value === value)?.value ?? "";
}

export function ProductsScreen() {
  const session = useSession();
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const filters = { q: search.get("q") ?? "", status: statusFilter(search.get("status")), category: search.get("category") ?? "" };
  const page = Math.max(1, Number(search.get("page")) || 1);
  // The page next to another is asked for by that page's cursor (as deep as it goes, it costs the list what the
  // first page does); a page typed into the address by number is counted off from the first.
  const cursor = { after: search.get("after") ?? "", before: search.get("before") ?? "" };
  const [draft, setDraft] = useState(filters);
  const [creating, setCreating] = useState(false);
  const canWrite = allows(session, "products.write");

  const products = useResource(
    () =>
      pageOf(
        api.GET("/api/dashboard/products", {
          params: {
            query: {
              ...(filters.q ? { q: filters.q } : {}),
              ...(filters.status ? { status: filters.status } : {}),
              ...(filters.category ? { category: filters.category } : {}),
              page: String(page),
              per_page: String(PER_PAGE),
              ...(cursor.after ? { after: cursor.after } : cursor.before ? { before: cursor.before } : {}),
            },
          },
        }),
      ),
    [filters.q, filters.status, filters.category, page, cursor.after, cursor.before],
  );

  const go = (next: typeof filters, nextPage = 1, from: { after?: string | null; before?: string | null } = {}) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value) query.set(key, value);
    if (nextPage > 1) query.set("page", String(nextPage));
    if (nextPage > 1 && from.after) query.set("after", from.after);
    else if (nextPage > 1 && from.before) query.set("before", from.before);
    const text = query.toString();
    navigate(text ? `/products?${text}` : "/products");
  };

  return (
    <Page
      title="Products"
      actions={
        <>
          {/* Every role may keep a copy: everything in it is public already (docs/archive.md). */}
          <a href="/api/dashboard/archive" className="button secondary" download>
            Download passport archive
          </a>
          {canWrite && (
            <>
              <button type="button" aria-expanded={creating} aria-controls="create-product" onClick={() => setCreating((open) => !open)}>
                {creating ? "Close the new product form" : "Add product"}
              </button>
              <Link href="/imports" className="button secondary">
                Import from CSV
              </Link>
            </>
          )}
        </>
      }
    >
      {creating && (
        <div id="create-product">
          <CreateProductForm onCreated={(uid) => navigate(`/products/${uid}`)} />
        </div>
      )}
      <Section title="Find products" id="find-products">
        <form
          role="search"
          className="filters"
          onSubmit={(event) => {
            event.preventDefault();
            go({ q: draft.q.trim(), status: draft.status, category: draft.category.trim() });
          }}
        >
          <TextField label="Search products" type="search" hint="UID, SKU or name" maxLength={100} value={draft.q} onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
          <SelectField label="Filter by status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: statusFilter(e.target.value) })}>
            {STATUSES.map((status) => (
              <option key={status.value} value={status.value}>
                {status.label}
              </option>
            ))}
          </SelectField>
          <TextField label="Filter by category" maxLength={40} hint="e.g. shirt" value={draft.category} onChange={(e) => setDraft({ ...draft, category: e.target.value })} />
          <div className="filter-actions">
            <button type="submit">Apply filters</button>
            {(filters.q || filters.status || filters.category) && (
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setDraft({ q: "", status: "", category: "" });
                  go({ q: "", status: "", category: "" });
                }}
              >
                Clear filters
              </button>
            )}
          </div>
        </form>
      </Section>

      <section className="card" aria-labelledby="product-list">
        <h2 id="product-list">Product list</h2>
        <p role="status" className="muted">
          {products.data && !products.loading
            ? `${products.data.meta.total_is_lower_bound ? `${formatNumber(products.data.meta.total)}+` : products.data.meta.total} products found.`
            : ""}
        </p>
        <div aria-busy={products.loading}>
          {products.loading && !products.data && <Loading what="products" />}
          {products.error && <ErrorNotice error={products.error} title="The products could not be loaded." />}
          {products.data && products.data.data.length === 0 && (
            <Empty>{filters.q || filters.status || filters.category ? "No product matches these filters." : "No products yet."}</Empty>
          )}
          {products.data && products.data.data.length > 0 && (
            <>
              <TableScroll label="Product list">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Product</th>
                      <th scope="col" className="wide-only">
                        SKU
                      </th>
                      <th scope="col" className="wide-only">
                        Category
                      </th>
                      <th scope="col">Passport</th>
                      <th scope="col">NFC tag</th>
                      <th scope="col" className="wide-only">
                        Created
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {products.data.data.map((product) => (
                      <tr key={product.uid}>
                        <th scope="row">
                          <Link href={`/products/${product.uid}`}>{product.name}</Link>
                          <div className="muted mono small">{product.uid}</div>
                        </th>
                        <td className="wide-only">{product.sku}</td>
                        <td className="wide-only">{product.category}</td>
                        <td>
                          <PassportBadge status={product.passport_status} /> <ChainStatusBadge status={product.chain_status === "active" ? null : product.chain_status} />
                        </td>
                        <td>{product.tag_assigned ? "Assigned" : "None"}</td>
                        <td className="wide-only">{formatDateTime(product.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <Pager
                page={products.data.meta.page}
                perPage={products.data.meta.per_page}
                total={products.data.meta.total}
                totalIsLowerBound={products.data.meta.total_is_lower_bound}
                shown={products.data.data.length}
                noun="products"
                hasNext={products.data.meta.next_cursor !== null}
                onPage={(next) => go(filters, next, next > page ? { after: products.data?.meta.next_cursor } : { before: products.data?.meta.prev_cursor })}
              />
            </>
          )}
        </div>
      </section>
    </Page>
  );
}
