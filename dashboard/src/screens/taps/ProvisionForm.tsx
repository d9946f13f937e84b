// The provisioning form: chip, the batch's chip UIDs and optionally their products, then the CSV download. It says
// plainly that the file holds keys (for owners and admins; other roles get the URLs only).
import { useId, useState } from "react";
import { allows, useSession } from "../../session";
import { SelectField, TextAreaField } from "../../ui/fields";
import { formatNumber } from "../../ui/format";
import { focusFirstInvalid, useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { CHIPS, linesOf, MAX_TAGS, problemsOf, provisionTags, saveFile, type Chip } from "./provision";

export function ProvisionForm({ onProvisioned }: { onProvisioned: () => void }) {
  const session = useSession();
  const getsKeys = allows(session, "tags.keys");
  const warningId = useId();
  const [chip, setChip] = useState<Chip>("NTAG424");
  const [tagText, setTagText] = useState("");
  const [productText, setProductText] = useState("");
  const [problems, setProblems] = useState<{ tags?: string; products?: string }>({});
  const provision = useAction();
  const tagCount = linesOf(tagText, "tag").length;

  return (
    <>
      <p>
        Paste the chip UIDs of a batch of tags, one a line (at most {formatNumber(MAX_TAGS)}). You get a CSV file for your encoding station: for each tag,
        the URL to write on it and, for NTAG 424 DNA tags, the keys that let it sign every tap.
      </p>
      {getsKeys ? (
        <div className="notice keys-warning" id={warningId}>
          <p>
            <strong>The file holds secret keys.</strong> Anyone who has it can make tags that pass as yours. Give it only to the encoding station, never by
            email or chat, and delete it once the tags are written.
          </p>
        </div>
      ) : (
        <div className="notice" id={warningId}>
          <p>Your role gets the URLs to write, without keys: the key columns stay empty. An owner or admin gets the keys for NTAG 424 DNA tags.</p>
        </div>
      )}
      <form
        className="provision-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const tagUids = linesOf(tagText, "tag");
          const productUids = linesOf(productText, "product");
          const found = problemsOf(tagUids, productUids);
          setProblems(found);
          if (found.tags || found.products) {
            provision.reset();
            focusFirstInvalid(event.currentTarget);
            return;
          }
          void provision.run(async () => {
            const file = await provisionTags({ chip, tag_uids: tagUids, ...(productUids.length ? { product_uids: productUids } : {}) });
            saveFile(file);
            onProvisioned();
            return getsKeys
              ? `Downloaded ${file.filename} with ${formatNumber(file.rows)} ${file.rows === 1 ? "tag" : "tags"}. Keep it secret and delete it once the tags are written.`
              : `Downloaded ${file.filename} with ${formatNumber(file.rows)} ${file.rows === 1 ? "tag" : "tags"}.`;
          });
        }}
      >
        <SelectField
          label="Chip"
          hint="An NTAG 424 DNA signs every tap with its own keys, so a copied tag or URL is detected. An NTAG215 carries a fixed UID anyone can copy."
          value={chip}
          onChange={(e) => setChip(e.target.value as Chip)}
        >
          {CHIPS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label="Tag UIDs, one a line"
          className="mono"
          rows={8}
          spellCheck={false}
          autoCapitalize="characters"
          hint={`14 hexadecimal digits each, as the encoder reads them (04A1B2C3D4E5F6; colons and spaces are ignored). ${formatNumber(tagCount)} so far.`}
          error={problems.tags ?? provision.error?.problemWith("tag_uids")}
          value={tagText}
          onChange={(e) => setTagText(e.target.value)}
        />
        <TextAreaField
          label="Product UIDs, one a line (optional)"
          className="mono"
          rows={8}
          spellCheck={false}
          autoCapitalize="characters"
          hint="Line by line with the tag UIDs: the first tag goes on the first product, and so on. Leave empty to bind the tags to products later."
          error={problems.products ?? provision.error?.problemWith("product_uids")}
          value={productText}
          onChange={(e) => setProductText(e.target.value)}
        />
        <button type="submit" aria-describedby={warningId} aria-disabled={provision.busy || undefined}>
          Download the CSV
        </button>
        <ActionStatus action={provision} busyText="Preparing the file…" />
      </form>
    </>
  );
}
