// What the service asks of an EU DPP registry, whoever runs it: register up to 100 passports at once, read a
// registration back, check a proof of registration. The CIRPASS-2 mock's HTTP interface is one implementation
// (cirpass-registry-client.ts); the Commission's API, once published, is to be a second one behind the same interface.

/** The registration of one passport, as the CIRPASS-2 mock's metadata JSON schema spells its fields. */
export type RegistrationMetadata = {
  /** The unique product identifier: the header's uniqueProductIdentifier. */
  upi: string;
  /** The responsible economic operator: the header's economicOperatorId (EORI or GLN). */
  reoId: string;
  /** Where the passport is read: its EN 18222 ReadDPPById URL at this deployment. */
  liveURL: string;
  /** Where it is read when this deployment is gone: the same path at the back-up operator. */
  backupURL: string;
  /** CN-8 or HS-6 code of the textile section. */
  commodityCode: string;
  /** The header's facility id(s). */
  facilitiesId: string[];
  granularityLevel: "MODEL" | "BATCH" | "ITEM";
  /** The mock's schema asks it of an item passport, and refuses it on a model or batch. */
  deactivated?: boolean;
  /** NFC always (our tags), QR when the product has a GS1 Digital Link. */
  dataCarrierTypes: Array<"NFC" | "QR">;
};

/** What the registry holds for one registration. */
export type RegistryEntry = {
  registryId: string;
  createdAt: string | null;
  modifiedAt: string | null;
  metadata: RegistrationMetadata;
  /** The signed proof of registration (a compact JWS), when the registry issues one; the CIRPASS-2 mock issues none. */
  proof: string | null;
};

/** One registration's answer: registered, or refused by the registry for a reason that retrying will not change. */
export type RegistrationOutcome = { ok: true; entry: RegistryEntry } | { ok: false; reason: string };

/** What a verified proof says (Implementing Regulation (EU) 2026/1778: product id, commodity code, operator, time, hash). */
export type ProofClaims = {
  registryId: string;
  upi: string;
  commodityCode: string;
  reoId: string;
  /** keccak256 of the registered passport version's canonical content, as the registry computed it. */
  dppHash: string;
  /** The registry's timestamp. */
  issuedAt: Date;
};

export interface RegistryClient {
  /** Registrations one call may carry. */
  readonly maxBatch: number;
  /**
   * Registers each entry (at most maxBatch), answering one outcome per entry in order. Throws
   * RegistryUnavailableError when the registry could not be asked or failed (nothing to conclude: try again later).
   */
  register(entries: RegistrationMetadata[]): Promise<RegistrationOutcome[]>;
  /** A registration by the registry's id; undefined when the registry has none. */
  read(registryId: string): Promise<RegistryEntry | undefined>;
  /** Checks a proof's signature against the registry's published keys and returns its claims; throws when it fails. */
  verifyProof(proof: string): Promise<ProofClaims>;
}

/** The registry was down, timed out, refused our credentials or failed: retried later, with back-off. */
export class RegistryUnavailableError extends Error {}
