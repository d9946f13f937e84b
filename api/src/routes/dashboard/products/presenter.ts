// Products, imports, scans and the overview as the dashboard's JSON shows them.
import type { AuditPage } from "../../../audit/service";
import type { Config } from "../../../config";
import type { ImportJobRow } from "../../../imports/service";
import { brandAddressOf, certificatePageUrl, certificatePdfUrl, explorerTxUrl, type BrandAddress } from "../../../links";
import type { Overview } from "../../../products/overview";
import { productDigitalLink } from "../../../gs1/links";
import type { ProductDetail } from "../../../products/product-detail";
import type { ProductSummary } from "../../../products/product-list";
import type { Issuance } from "../../../passports/issuance";
import type { ScanHistory } from "../../../scans/scan-history";
import type { ProductTranslations } from "../../../i18n/product-texts";

const iso = (at: Date | string) => new Date(at).toISOString();

export function presentSummary(config: Config, summary: ProductSummary) {
  return {
    uid: summary.uid,
    sku: summary.sku,
    name: summary.name,
    category: summary.category,
    passport_status: summary.passportStatus,
    chain_status: summary.chainStatus,
    tag_assigned: summary.tagAssigned,
    created_at: iso(summary.createdAt),
    tx_hash: summary.txHash,
    explorer_url: summary.txHash ? explorerTxUrl(config, summary.txHash) : null,
  };
}

/** `translations`: the brand's translations of the name and description (presentation, not anchored). */
export function presentDetail(config: Config, detail: ProductDetail, translations: ProductTranslations = {}) {
  const { product, record, versions, tag } = detail;
  const { links } = record;
  return {
    uid: product.uid,
    sku: product.sku,
    name: product.name,
    category: product.category,
    passport_status: record.blockchain.status,
    chain_status: record.blockchain.passport_status,
    tag_assigned: tag !== null,
    created_at: iso(product.created_at),
    tx_hash: record.blockchain.tx_hash,
    explorer_url: record.blockchain.explorer_url,
    description: product.description,
    fabric_type: product.fabric_type,
    price: Number(product.price),
    currency: product.currency.trim(),
    fiber_composition: product.fiber_composition,
    care_instructions: product.care_instructions,
    certifications: product.certifications,
    factory:
      product.factory_id === null
        ? null
        : { id: Number(product.factory_id), name: product.factory_name, city: product.factory_city, country: product.factory_country?.trim() ?? null },
    gtin: product.gtin,
    lot: product.lot,
    serial: product.serial,
    digital_link: productDigitalLink(config, product),
    translations,
    textile: product.textile,
    passport: record,
    links: { scan_url: links.scan_url, certificate_url: links.certificate_url, pdf_url: certificatePdfUrl(config, product.uid, brandAddressOf(product)), dpp_url: links.dpp_url },
    versions: versions.map((v) => ({
      version: v.version,
      data_hash: v.dataHash,
      tx_hash: v.txHash,
      explorer_url: v.txHash ? explorerTxUrl(config, v.txHash) : null,
      at: iso(v.at),
      kind: v.kind,
      status: v.status,
    })),
    tag: tag ? { tag_hash: tag.tagHash, tx_hash: tag.txHash, explorer_url: tag.explorerUrl } : null,
  };
}

export function presentCertificate(config: Config, uid: string, issuance: Issuance, brand: BrandAddress | null) {
  return {
    uid,
    status: "minted" as const,
    tx_hash: issuance.txHash,
    explorer_url: explorerTxUrl(config, issuance.txHash!),
    token_id: issuance.tokenId,
    certificate_url: certificatePageUrl(config, uid, brand),
    pdf_url: certificatePdfUrl(config, uid, brand),
  };
}

export function presentImport(config: Config, job: ImportJobRow) {
  return {
    id: String(job.id),
    status: job.status,
    total: job.total,
    processed: job.processed,
    imported: job.imported,
    failed: job.failed,
    created_at: iso(job.created_at),
    finished_at: job.finished_at ? iso(job.finished_at) : null,
    errors_url: job.failed > 0 ? `${config.publicBaseUrl}/api/dashboard/imports/${job.id}/errors.csv` : null,
  };
}

export function presentScans(history: ScanHistory) {
  return {
    daily: history.daily.map((d) => ({ date: d.date, scans: d.count })),
    items: history.items.map((item) => ({ id: String(item.id), uid: item.uid, product_name: item.product_name, verified: item.verified, scanned_at: iso(item.scanned_at) })),
  };
}

function presentAuditEntry(entry: AuditPage["entries"][number]) {
  return { id: String(entry.id), actor: entry.actor, action: entry.action, target: entry.target, details: entry.details, at: iso(entry.created_at) };
}

export function presentOverview(overview: Overview) {
  return {
    period: overview.period,
    plan: overview.plan,
    meters: overview.meters,
    daily: overview.daily,
    products: overview.products,
    recent_activity: overview.recentActivity.map(presentAuditEntry),
  };
}
