// A secret the server shows exactly once (an API key, a webhook signing secret): the value, a copy button and the
// warning that it cannot be shown again. It takes focus when it appears so nobody misses it.
import { useEffect, useId, useRef } from "react";
import { CopyButton } from "./buttons";

export function OneTimeSecret({ title, value, note, onDismiss }: { title: string; value: string; note?: string; onDismiss: () => void }) {
  const id = useId();
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => region.current?.focus(), [value]);
  return (
    <div className="secret" role="region" aria-labelledby={`${id}-title`} tabIndex={-1} ref={region}>
      <h3 id={`${id}-title`}>{title}</h3>
      <p className="warning">
        <strong>Copy it now: it will not be shown again.</strong> {note ?? "Store it in your password manager or your server's secret store."}
      </p>
      <div className="field">
        <label htmlFor={`${id}-value`}>{title}</label>
        <div className="inline">
          <input id={`${id}-value`} readOnly value={value} className="mono" onFocus={(event) => event.currentTarget.select()} />
          <CopyButton value={value} />
        </div>
      </div>
      <button type="button" className="secondary" onClick={onDismiss}>
        I have stored it
      </button>
    </div>
  );
}
