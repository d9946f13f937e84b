// Buttons with more than one step: copy to the clipboard (saying it worked), and a destructive action that asks for
// confirmation in place, with focus on the confirming button, instead of a blocking dialog.
import { useEffect, useRef, useState, type ReactNode } from "react";

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  };
  return (
    <>
      <button type="button" className="secondary" onClick={copy}>
        {label}
      </button>
      <span role="status" className="copy-status">
        {copied === "yes" ? "Copied." : copied === "no" ? "Could not copy: select the text and copy it yourself." : ""}
      </span>
    </>
  );
}

export function ConfirmButton({
  label,
  context,
  confirmLabel,
  question,
  onConfirm,
  disabled,
  className = "danger",
}: {
  label: string;
  /** While another action runs: the button stays focusable (a disabled one would drop focus) but does nothing. */
  disabled?: boolean;
  /** Read after the label by screen readers, when the label alone is ambiguous (one Revoke button a row). */
  context?: string;
  confirmLabel: string;
  question: ReactNode;
  onConfirm: () => void | Promise<unknown>;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      openRef.current?.focus();
    }
  }, [asking]);

  if (!asking)
    return (
      <button
        type="button"
        ref={openRef}
        className={className === "danger" ? "secondary danger-text" : className}
        aria-disabled={disabled || undefined}
        onClick={() => !disabled && setAsking(true)}
      >
        {label}
        {context && <span className="sr-only"> {context}</span>}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label={context ? `${label} ${context}` : label}>
      <span className="confirm-question">{question}</span>
      <button
        type="button"
        ref={confirmRef}
        className={className}
        onClick={async () => {
          setAsking(false);
          await onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          returnFocus.current = true;
          setAsking(false);
        }}
      >
        Cancel
      </button>
    </span>
  );
}
