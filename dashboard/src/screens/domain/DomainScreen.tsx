// The brand's subdomain and custom domain with its verification steps (issue 14).
import { Page } from "../../ui/Page";

export function DomainScreen() {
  return <Page title="Custom domain">{null}</Page>;
}
