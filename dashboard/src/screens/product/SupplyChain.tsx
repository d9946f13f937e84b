// The supply-chain steps recorded on chain for this product, each with its transaction.
import type { PassportRecord } from "../../api/types";
import { TxLink } from "../../ui/chain";
import { formatDateTime } from "../../ui/format";
import { Section } from "../../ui/Page";
import { TableScroll } from "../../ui/TableScroll";

export function SupplyChain({ events }: { events: PassportRecord["supply_chain_events"] }) {
  return (
    <Section title="Supply chain" id="supply-chain">
      <TableScroll label="Supply chain">
        <table>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Factory</th>
              <th scope="col">Place</th>
              <th scope="col">When</th>
              <th scope="col">Transaction</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id}>
                <th scope="row">{stageName(event.stage)}</th>
                <td>{event.factory_name ?? `#${event.factory_id}`}</td>
                <td>{event.place ?? "—"}</td>
                <td>{formatDateTime(event.time)}</td>
                <td>
                  <TxLink hash={event.tx_hash} url={event.explorer_url} label={`${stageName(event.stage)} transaction`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </Section>
  );
}

/** "fibre_sourced" → "Fibre sourced": the stage as a person reads it. */
function stageName(stage: string): string {
  const words = stage.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
