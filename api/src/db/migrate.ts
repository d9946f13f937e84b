// Runs the API's knex migrations. Migrations are listed here, not discovered on disk, so they run the same under
// tsx, in tests and in a bundled build.
import type { Knex } from "knex";
import { migrationPool } from "./knex";
import * as initial from "./migrations/001-initial";
import * as authAndScans from "./migrations/002-auth-and-scans";
import * as supplyChainDetails from "./migrations/003-supply-chain-details";
import * as metering from "./migrations/004-metering";
import * as webhooks from "./migrations/005-webhooks";
import * as idempotency from "./migrations/006-idempotency";
import * as authNotify from "./migrations/007-auth-notify";
import * as callLeases from "./migrations/008-call-leases";
import * as aiQuota from "./migrations/009-ai-quota";
import * as webhookRetention from "./migrations/010-webhook-retention";
import * as productCurrency from "./migrations/011-product-currency";
import * as makerConfirmation from "./migrations/012-maker-confirmation";
import * as scanCounting from "./migrations/013-scan-counting";
import * as productDefaults from "./migrations/015-product-defaults";
import * as webhookFairClaims from "./migrations/017-webhook-fair-claims";
import * as brandUsers from "./migrations/018-brand-users";
import * as dashboardProducts from "./migrations/019-dashboard-products";
import * as brandLogos from "./migrations/020-brand-logos";
import * as nfcTags from "./migrations/021-nfc-tags";
import * as tagProvisioning from "./migrations/022-tag-provisioning";
import * as customDomains from "./migrations/023-custom-domains";
import * as orders from "./migrations/024-orders";
import * as chainLedger from "./migrations/025-chain-ledger";
import * as productIdentifiers from "./migrations/026-product-identifiers";
import * as productTranslations from "./migrations/027-product-translations";
import * as revertedWatch from "./migrations/028-reverted-watch";
import * as gtinOwners from "./migrations/029-gtin-owners";
import * as refundUnknown from "./migrations/030-refund-unknown";
import * as productSkuUnique from "./migrations/031-product-sku-unique";
import * as domainClaims from "./migrations/032-domain-claims";
import * as dppHeader from "./migrations/033-dpp-header";
import * as bulkIssuance from "./migrations/034-bulk-issuance";
import * as listIndexes from "./migrations/035-list-indexes";
import * as textileContent from "./migrations/036-textile-content";
import * as stageConfirmations from "./migrations/037-stage-confirmations";
import * as registryRegistrations from "./migrations/038-registry-registrations";
import * as accessClasses from "./migrations/039-access-classes";
import * as backupOperator from "./migrations/040-backup-operator";
import * as passportBrand from "./migrations/041-passport-brand";
import * as passportMintedBlock from "./migrations/042-passport-minted-block";
import * as rowCounts from "./migrations/043-row-counts";

type Migration = {
  up: (knex: Knex) => Promise<void>;
  down: (knex: Knex) => Promise<void>;
  /** `transaction: false` for a migration that cannot run in one (CREATE INDEX CONCURRENTLY). */
  config?: { transaction?: boolean };
};

const MIGRATIONS: Record<string, Migration> = {
  "001-initial": initial,
  "002-auth-and-scans": authAndScans,
  "003-supply-chain-details": supplyChainDetails,
  "004-metering": metering,
  "005-webhooks": webhooks,
  "006-idempotency": idempotency,
  "007-auth-notify": authNotify,
  "008-call-leases": callLeases,
  "009-ai-quota": aiQuota,
  "010-webhook-retention": webhookRetention,
  "011-product-currency": productCurrency,
  "012-maker-confirmation": makerConfirmation,
  "013-scan-counting": scanCounting,
  "015-product-defaults": productDefaults,
  "017-webhook-fair-claims": webhookFairClaims,
  "018-brand-users": brandUsers,
  "019-dashboard-products": dashboardProducts,
  "020-brand-logos": brandLogos,
  "021-nfc-tags": nfcTags,
  "022-tag-provisioning": tagProvisioning,
  "023-custom-domains": customDomains,
  "024-orders": orders,
  "025-chain-ledger": chainLedger,
  "026-product-identifiers": productIdentifiers,
  "027-product-translations": productTranslations,
  "028-reverted-watch": revertedWatch,
  "029-gtin-owners": gtinOwners,
  "030-refund-unknown": refundUnknown,
  "031-product-sku-unique": productSkuUnique,
  "032-domain-claims": domainClaims,
  "033-dpp-header": dppHeader,
  "034-bulk-issuance": bulkIssuance,
  "035-list-indexes": listIndexes,
  "036-textile-content": textileContent,
  "037-stage-confirmations": stageConfirmations,
  "038-registry-registrations": registryRegistrations,
  "039-access-classes": accessClasses,
  "040-backup-operator": backupOperator,
  "041-passport-brand": passportBrand,
  "042-passport-minted-block": passportMintedBlock,
  "043-row-counts": rowCounts,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

const options: Knex.MigratorConfig = {
  migrationSource: source,
  schemaName: "app",
  tableName: "knex_migrations",
};

/**
 * Brings schema "app" up to date; safe to run from several processes at once (knex takes a lock). It runs on a pool
 * of its own without the statement time-out (see migrationPool).
 */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const migrator = migrationPool(db);
  try {
    await migrator.raw("CREATE SCHEMA IF NOT EXISTS app");
    const [, applied] = (await migrator.migrate.latest(options)) as [number, string[]];
    return applied;
  } finally {
    await migrator.destroy();
  }
}
