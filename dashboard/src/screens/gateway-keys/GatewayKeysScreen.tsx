// Gateway Keys: payment gateway credentials per method (issue 13).
import { Page } from "../../ui/Page";

export function GatewayKeysScreen() {
  return <Page title="Gateway keys">{null}</Page>;
}
