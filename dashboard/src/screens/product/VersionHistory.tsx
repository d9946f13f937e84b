// Every anchored version of the passport's content: its data hash and the transaction that put it on chain.
import type { ProductVersion } from "../../api/types";
import { Badge } from "../../ui/badges";
import { HashValue, TxLink } from "../../ui/chain";
import { formatDateTime } from "../../ui/format";
import { Empty } from "../../ui/notices";
import { Section } from "../../ui/Page";
import { TableScroll } from "../../ui/TableScroll";

export function VersionHistory({ versions }: { versions: ProductVersion[] }) {
  return (
    <Section title="Version history" id="versions">
      {versions.length === 0 ? (
        <Empty>No version is on chain yet: issue the certificate to anchor the first.</Empty>
      ) : (
        <TableScroll label="Version history">
          <table>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Change</th>
                <th scope="col">Data hash</th>
                <th scope="col">Transaction</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {versions.map((version) => (
                <tr key={version.version}>
                  <th scope="row">{version.version}</th>
                  <td>
                    {version.kind === "mint" ? "Minted" : "Content updated"}
                    {version.status === "pending" && (
                      <>
                        {" "}
                        <Badge tone="warn">Pending</Badge>
                      </>
                    )}
                  </td>
                  <td>
                    <HashValue value={version.data_hash} />
                  </td>
                  <td>
                    <TxLink hash={version.tx_hash} url={version.explorer_url} label={`Version ${version.version} transaction`} />
                  </td>
                  <td>{formatDateTime(version.at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Section>
  );
}
