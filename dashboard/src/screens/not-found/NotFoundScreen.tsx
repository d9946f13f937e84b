// An address inside /dashboard that is no screen.
import { Link } from "wouter";
import { Page } from "../../ui/Page";

export function NotFoundScreen() {
  return (
    <Page title="Page not found">
      <p>
        There is no such page in the dashboard. <Link href="/">Go to the overview</Link>.
      </p>
    </Page>
  );
}
