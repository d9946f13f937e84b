// The cashier's Cash QR confirmation, opened from the QR code on a shopper's phone (issue 13).
import { Page } from "../../ui/Page";

export function CashierScreen(_props: { orderId?: string }) {
  return <Page title="Confirm a cash payment">{null}</Page>;
}
