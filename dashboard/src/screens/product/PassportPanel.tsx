// The passport as anchored: status, token, the data hash on chain against the hash recomputed from the content, the
// mint transaction, and the public pages of the product.
import type { ProductDetail } from "../../api/types";
import { HashValue, TxLink } from "../../ui/chain";
import { Section } from "../../ui/Page";
import { RegistryRegistration } from "./RegistryRegistration";

export function PassportPanel({ product }: { product: ProductDetail }) {
  const chain = product.passport?.blockchain;
  const matches = chain?.data_hash_matches;
  return (
    <Section title="Passport" id="passport">
      <dl className="facts">
        <div>
          <dt>Mint transaction</dt>
          <dd>
            <TxLink hash={chain?.tx_hash ?? product.tx_hash} url={chain?.explorer_url ?? product.explorer_url} />
          </dd>
        </div>
        {chain && (
          <>
            <div>
              <dt>Confirmations</dt>
              <dd>
                {chain.confirmations} of {chain.required_confirmations} required
              </dd>
            </div>
            <div>
              <dt>Network</dt>
              <dd>
                {chain.network} (chain {chain.chain_id})
              </dd>
            </div>
            <div>
              <dt>Token ID</dt>
              <dd>
                <HashValue value={chain.token_id} />
              </dd>
            </div>
            <div>
              <dt>Contract</dt>
              <dd>
                <HashValue value={chain.contract} />
              </dd>
            </div>
            <div>
              <dt>Data hash on chain</dt>
              <dd>
                <HashValue value={chain.data_hash} />
              </dd>
            </div>
            <div>
              <dt>Data hash of the content served</dt>
              <dd>
                <HashValue value={chain.computed_data_hash} />
              </dd>
            </div>
            <div>
              <dt>Hashes match</dt>
              <dd>
                {matches === null || matches === undefined ? (
                  <span className="muted">not anchored yet</span>
                ) : matches ? (
                  <span className="badge ok">Yes, the content is what was anchored</span>
                ) : (
                  <span className="badge bad">No: the content differs from the chain</span>
                )}
              </dd>
            </div>
          </>
        )}
        {product.passport_status !== "unissued" && <RegistryRegistration uid={product.uid} />}
      </dl>
      <ul className="link-list">
        <li>
          <a href={product.links.scan_url} target="_blank" rel="noopener noreferrer">
            Public scan page<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
        <li>
          <a href={product.links.dpp_url} target="_blank" rel="noopener noreferrer">
            Passport record<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
        {product.passport_status !== "unissued" && (
          <li>
            <a href={product.links.certificate_url} target="_blank" rel="noopener noreferrer">
              Certificate page<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        )}
      </ul>
    </Section>
  );
}
