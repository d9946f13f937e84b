// The public addresses of a product's passport: the JSON record, the certificate page, the scan page and the PDF.
import type { Config } from "../config";

export function productLinks(config: Config, uid: string) {
  return {
    dpp_url: `${config.publicBaseUrl}/api/dpp/${uid}`,
    certificate_url: `${config.publicBaseUrl}/dpp-certificate/${uid}`,
    scan_url: `${config.publicBaseUrl}/scan/${uid}`,
  };
}

/** Public URL of the certificate PDF of a UID. */
export function certificatePdfUrl(publicBaseUrl: string, uid: string): string {
  return `${publicBaseUrl}/certificates/${uid}.pdf`;
}
