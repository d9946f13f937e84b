// SSLCommerz's own Node SDK (sslcommerz-lts) against the local SSLCommerz, over real HTTP: the session it opens with a
// multipart form, the IPN the local server then posts to our API (which settles our order with our own client), the
// validation and transaction queries it POSTs with their parameters in the query string, and a refund; then what the
// local server answers to a body that does not parse.
import { expect } from "chai";
import SSLCommerzPayment from "sslcommerz-lts";
import { SslcommerzGateway } from "../../api/src/payments/sslcommerz";
import type { InProcessApi } from "../../scripts/lib/api-process";
import { startPaymentSims, type PaymentSims, type RunningSim } from "../../scripts/lib/payment-sims";
import { gatewayOrder } from "../support/gateways";
import { gatewayIdsOf, insertProduct, orderRow, placed, readOrder, sellingBrand, setUpMethod, startOrdersApi } from "../support/orders";

/**
 * The SDK, sent to the local server. Its constructor builds every endpoint URL from a host it hardcodes (sandbox or
 * securepay) into public fields; only that host is swapped, so each path and query string is still the SDK's own. Its
 * per-call `url` argument would replace the whole URL, query string included, and so test ours instead of the SDK's.
 */
function localSdk(sim: RunningSim): SSLCommerzPayment {
  const sdk = new SSLCommerzPayment(sim.credentials.store_id, sim.credentials.store_passwd, false);
  const host = sdk.baseURL;
  const fields = ["initURL", "validationURL", "refundURL", "refundQueryURL", "transactionQueryBySessionIdURL", "transactionQueryByTransactionIdURL"] as const;
  for (const name of fields) {
    expect(sdk[name].startsWith(host), `${name} is built from baseURL`).to.equal(true);
    sdk[name] = `${sim.baseUrl}${sdk[name].slice(host.length)}`;
  }
  return sdk;
}

/** The hidden fields of the page that sends the shopper's browser back to the merchant. */
function returnedFields(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]));
}

describe("SSLCommerz's own Node SDK (sslcommerz-lts) against the local SSLCommerz", () => {
  let sims: PaymentSims;
  let api: InProcessApi;
  let product: string;

  before(async function () {
    this.timeout(60_000);
    sims = await startPaymentSims();
    api = await startOrdersApi("gateway_sslcommerz_sdk", sims);
    const brand = await sellingBrand(api, "sdk-shop", "growth");
    await setUpMethod(brand, "sslcommerz", { ...sims.sslcommerz.credentials });
    product = await insertProduct(api.db, brand.id, "1500.00", "BDT", "Jamdani Saree");
  });
  afterEach(() => sims?.sslcommerz.control.reset());
  after(async () => {
    await api?.close();
    await sims?.stop();
  });

  it("opens a session with a multipart form, has the IPN settle our order, then validates, queries and refunds it", async () => {
    const order = await placed(api, { uid: product, method: "sslcommerz", contact: { email: "shopper@example.com" } });
    const { reference } = (await gatewayIdsOf(api.db, order.order_id))!;
    const sdk = localSdk(sims.sslcommerz);
    const payments = `${api.url}/api/payments/sslcommerz`;

    // A shop on the SDK opens its own session for our order's tran_id and lets our API take the IPN.
    const session = await sdk.init({
      total_amount: 1500,
      currency: "BDT",
      tran_id: reference,
      success_url: `${payments}/return/success`,
      fail_url: `${payments}/return/fail`,
      cancel_url: `${payments}/return/cancel`,
      ipn_url: `${payments}/ipn`,
      shipping_method: "NO",
      num_of_item: 1,
      product_name: "Jamdani Saree",
      product_category: "clothing",
      product_profile: "physical-goods",
      cus_name: "Shopper",
      cus_email: "shopper@example.com",
      cus_add1: "House 1, Road 2",
      cus_city: "Dhaka",
      cus_postcode: "1207",
      cus_country: "Bangladesh",
      cus_phone: "01711111111",
      value_a: order.order_id,
    });
    expect(session, JSON.stringify(session)).to.include({ status: "SUCCESS" });
    const pageUrl = String(session.GatewayPageURL);
    expect(pageUrl.startsWith(`${sims.sslcommerz.baseUrl}/EasyCheckOut/`)).to.equal(true);
    const sessionkey = String(session.sessionkey);

    // The shopper approves on the gateway's page: the IPN reaches our API before the browser is sent back.
    expect(await (await fetch(pageUrl)).text()).to.contain('id="approve"').and.to.contain("1500");
    const back = await fetch(`${pageUrl}/decide`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "decision=success" });
    const returned = returnedFields(await back.text());
    expect(returned).to.include({ status: "VALID", tran_id: reference, amount: "1500.00", value_a: order.order_id });
    const settled = await readOrder(api, order.order_id, order.order_secret);
    expect(settled.status).to.be.oneOf(["paid", "verified"]);
    expect((await orderRow(api.db, order.order_id)).gateway_trx_id).to.equal(returned.bank_tran_id);

    // The SDK reads the same transaction back: by session key, by val_id (our API validated it first), by tran_id.
    const bySession = await sdk.transactionQueryBySessionId({ sessionkey });
    expect(bySession, JSON.stringify(bySession)).to.include({ APIConnect: "DONE", status: "VALIDATED", sessionkey, tran_id: reference, val_id: returned.val_id, amount: "1500.00" });
    const validated = await sdk.validate({ val_id: returned.val_id });
    expect(validated, JSON.stringify(validated)).to.include({ APIConnect: "DONE", status: "VALIDATED", tran_id: reference, val_id: returned.val_id, bank_tran_id: returned.bank_tran_id });
    const byTranId = await sdk.transactionQueryByTransactionId({ tran_id: reference });
    expect(byTranId, JSON.stringify(byTranId)).to.include({ APIConnect: "DONE", no_of_trans_found: 1 });
    expect((byTranId.element as Array<Record<string, unknown>>)[0]).to.include({ status: "VALIDATED", val_id: returned.val_id, amount: "1500.00" });
    expect(await sdk.validate({ val_id: "0000000000NOSUCHVALID" })).to.include({ APIConnect: "DONE", status: "INVALID_TRANSACTION" });

    // Our own client, against the same server, reads the SDK's session as this order's payment.
    const ours = new SslcommerzGateway({ baseUrl: sims.sslcommerz.baseUrl, timeoutMs: 2000 });
    const ourOrder = { ...gatewayOrder({ amountMinor: 150000 }), reference, orderId: order.order_id };
    expect(await ours.verify(ourOrder, sims.sslcommerz.credentials)).to.deep.include({ outcome: "paid", gatewayTrxId: returned.bank_tran_id });

    const refund = await sdk.initiateRefund({ refund_amount: "500.00", refund_remarks: "size", bank_tran_id: returned.bank_tran_id, refe_id: `${reference}R1` });
    expect(refund, JSON.stringify(refund)).to.include({ APIConnect: "DONE", status: "success", bank_tran_id: returned.bank_tran_id });
    expect(await sdk.refundQuery({ refund_ref_id: String(refund.refund_ref_id) })).to.include({ APIConnect: "DONE", status: "refunded" });
  });

  it("refuses the SDK's session with another store's password, and says a session still open is PENDING", async () => {
    const wrong = new SSLCommerzPayment(sims.sslcommerz.credentials.store_id, "guess@ssl", false);
    wrong.initURL = `${sims.sslcommerz.baseUrl}/gwprocess/v4/api.php`;
    const refused = await wrong.init({ total_amount: 100, currency: "BDT", tran_id: "SDKWRONG1" });
    expect(refused).to.include({ status: "FAILED" });
    expect(String(refused.failedreason)).to.contain("Store Credential Error");

    const sdk = localSdk(sims.sslcommerz);
    const base = "https://shop.example/sslcommerz";
    const open = await sdk.init({
      total_amount: "250.50",
      currency: "BDT",
      tran_id: "SDKOPEN1",
      success_url: `${base}/success`,
      fail_url: `${base}/fail`,
      cancel_url: `${base}/cancel`,
      shipping_method: "NO",
      product_name: "Tee",
      product_category: "clothing",
      product_profile: "general",
      cus_name: "Shopper",
      cus_email: "shopper@example.com",
      cus_add1: "Road 2",
      cus_city: "Dhaka",
      cus_country: "Bangladesh",
      cus_phone: "01711111111",
    });
    expect(open, JSON.stringify(open)).to.include({ status: "SUCCESS" });
    expect(await sdk.transactionQueryBySessionId({ sessionkey: String(open.sessionkey) })).to.include({ APIConnect: "DONE", status: "PENDING", tran_id: "SDKOPEN1" });
    expect(await sdk.transactionQueryByTransactionId({ tran_id: "SDKOPEN1" })).to.include({ APIConnect: "DONE", no_of_trans_found: 0 });
  });

  it("answers a session body that does not parse, or carries a file, with a plain 4xx, never a 5xx", async () => {
    const url = `${sims.sslcommerz.baseUrl}/gwprocess/v4/api.php`;
    const post = (contentType: string, body: string | Uint8Array) => fetch(url, { method: "POST", headers: { "Content-Type": contentType }, body });
    const noBoundary = await post("multipart/form-data", "store_id=x");
    expect(noBoundary.status).to.equal(400);
    expect(await noBoundary.text()).to.contain("multipart/form-data body does not parse");
    const cutOff = await post("multipart/form-data; boundary=zz", '--zz\r\nContent-Disposition: form-data; name="store_id"\r\n\r\nabc');
    expect(cutOff.status).to.equal(400);
    const file = new FormData();
    file.append("store_id", sims.sslcommerz.credentials.store_id);
    file.append("cart", new Blob(["<xml/>"], { type: "text/xml" }), "cart.xml");
    const withFile = await fetch(url, { method: "POST", body: file });
    expect(withFile.status).to.equal(400);
    expect(await withFile.text()).to.contain("only text fields");
    const huge = await post("multipart/form-data; boundary=zz", `--zz\r\nContent-Disposition: form-data; name="cart"\r\n\r\n${"x".repeat(70 * 1024)}\r\n--zz--\r\n`);
    expect(huge.status).to.equal(413);
    // A JSON body that is not JSON is the gateway's own refusal, as before.
    expect(await (await post("application/json", "{not json")).json()).to.include({ status: "FAILED" });
  });
});
