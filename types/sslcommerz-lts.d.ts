// sslcommerz-lts (SSLCommerz's own Node SDK, a test dependency) ships no types: the part of it our tests drive.
declare module "sslcommerz-lts" {
  /** The gateway's JSON answer, or the Error the SDK resolves with (it catches and returns it) when a call fails. */
  type Answer = Record<string, unknown>;
  class SSLCommerzPayment {
    constructor(storeId: string, storePassword: string, live?: boolean);
    /** The sandbox or live host, from which the constructor builds every URL below. */
    baseURL: string;
    initURL: string;
    validationURL: string;
    refundURL: string;
    refundQueryURL: string;
    transactionQueryBySessionIdURL: string;
    transactionQueryByTransactionIdURL: string;
    init(data: Record<string, string | number>): Promise<Answer>;
    validate(data: { val_id: string }): Promise<Answer>;
    initiateRefund(data: { refund_amount: string; refund_remarks: string; bank_tran_id: string; refe_id: string }): Promise<Answer>;
    refundQuery(data: { refund_ref_id: string }): Promise<Answer>;
    transactionQueryBySessionId(data: { sessionkey: string }): Promise<Answer>;
    transactionQueryByTransactionId(data: { tran_id: string }): Promise<Answer>;
  }
  export = SSLCommerzPayment;
}
