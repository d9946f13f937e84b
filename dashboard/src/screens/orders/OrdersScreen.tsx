// Orders: the brand's orders, their states and refunds (issue 13).
import { Page } from "../../ui/Page";

export function OrdersScreen() {
  return <Page title="Orders">{null}</Page>;
}
