// Rendered certificate PDFs kept in process by content digest (certificateDigest), so a certificate is rendered once
// however often it is downloaded; bounded by entries and bytes, least recently used out first.
export const PDF_CACHE_LIMITS = Object.freeze({ entries: 256, bytes: 32 * 1024 * 1024 });

export class CertificatePdfCache {
  /** digest → PDF, least recently used first. */
  private readonly entries = new Map<string, Uint8Array>();
  /** Renders under way: concurrent requests for one digest share one. */
  private readonly rendering = new Map<string, Promise<Uint8Array>>();
  private bytes = 0;

  constructor(private readonly limits: { entries: number; bytes: number } = PDF_CACHE_LIMITS) {}

  /** The PDF of `digest`: from the cache, or rendered by `render` and kept. */
  async get(digest: string, render: () => Promise<Uint8Array>): Promise<Uint8Array> {
    const cached = this.entries.get(digest);
    if (cached) {
      this.entries.delete(digest);
      this.entries.set(digest, cached);
      return cached;
    }
    let pending = this.rendering.get(digest);
    if (!pending) {
      pending = render().then((pdf) => {
        this.keep(digest, pdf);
        return pdf;
      });
      this.rendering.set(digest, pending);
      void pending.finally(() => this.rendering.delete(digest)).catch(() => undefined);
    }
    return pending;
  }

  private keep(digest: string, pdf: Uint8Array): void {
    // One PDF larger than the whole budget is served but not kept.
    if (pdf.byteLength > this.limits.bytes) return;
    this.entries.set(digest, pdf);
    this.bytes += pdf.byteLength;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.limits.entries && this.bytes <= this.limits.bytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.byteLength;
    }
  }
}
