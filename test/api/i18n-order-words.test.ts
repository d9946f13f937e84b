// The words of the order pages and of their script (assets/orders.client.js) in Bengali: every order state and where
// the order stands, the blanks the script fills in, and amounts written as the scan page writes them.
import { expect } from "chai";
import { BN } from "../../api/src/i18n/catalogue.bn";
import { EN } from "../../api/src/i18n/catalogue.en";
import { ORDER_STATES } from "../../api/src/orders/state-machine";
import { formatMoney, scriptWords } from "../../api/src/pages/purchase";

const BENGALI = /[\u0980-\u09FF]/u;

describe("Bengali words of orders", () => {
  it("says every order state, and where the order stands, in Bengali", () => {
    for (const state of ORDER_STATES) {
      expect(EN.orderStates[state], state).to.be.a("string").and.not.equal("");
      expect(EN.orderMessage(state, "bKash", false), state).to.not.equal("");
      expect(BN.orderStates[state], state).to.match(BENGALI);
      expect(BN.orderMessage(state, "bKash", false), state).to.match(BENGALI);
    }
    expect(BN.methodNames.cash_qr).to.match(BENGALI);
    expect(BN.methodNames.sslcommerz).to.match(BENGALI);
  });

  it("gives the page's script every word it needs, with the blanks it fills in, and the page's number format", () => {
    const bn = scriptWords("bn");
    expect(bn.moneyLocale).to.equal("bn-BD-u-nu-latn");
    expect(bn.messages.paid).to.include("{method}").and.match(BENGALI);
    expect(bn.takingYouTo).to.include("{method}");
    expect(bn.noKey).to.include("{order}");
    expect(bn.orderFailed).to.include("{reference}");
    const en = scriptWords("en");
    expect(en.dateLocale).to.equal(null);
    expect(en.messages.verified).to.equal("Payment received. Thank you.");
    expect(en.pendingCash).to.equal("Show the QR code to the cashier to pay.");
    expect(Object.keys(en).sort()).to.deep.equal(Object.keys(bn).sort());
    // The same amount reads the same wherever the page's language writes it.
    expect(formatMoney("790.00", "BDT", "bn")).to.equal(new Intl.NumberFormat(bn.moneyLocale, { style: "currency", currency: "BDT" }).format(790));
    expect(formatMoney("1990", "BDT", "en")).to.equal("BDT\u00a01,990.00");
    expect(EN.methodNames.cash_qr).to.equal("Cash at the till");
  });
});
