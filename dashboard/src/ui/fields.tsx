// Form fields with a visible label, an optional hint and the server's or the form's problem, wired together with
// aria-describedby and aria-invalid so a screen reader reads all three.
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";

export type A11yProps = { id: string; "aria-describedby"?: string; "aria-invalid"?: true };

export function Field({ label, hint, error, className, children }: { label: ReactNode; hint?: ReactNode; error?: string; className?: string; children: (a11y: A11yProps) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ");
  return (
    <div className={`field${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-describedby": describedBy || undefined, "aria-invalid": error ? true : undefined })}
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The field's label, hint and problem; any other attribute (className included) goes to the control itself. */
type Common = { label: ReactNode; hint?: ReactNode; error?: string };

export function TextField({ label, hint, error, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(a11y) => <input type="text" {...input} {...a11y} />}
    </Field>
  );
}

export function TextAreaField({ label, hint, error, ...textarea }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(a11y) => <textarea rows={4} {...textarea} {...a11y} />}
    </Field>
  );
}

export function SelectField({ label, hint, error, children, ...select }: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(a11y) => (
        <select {...select} {...a11y}>
          {children}
        </select>
      )}
    </Field>
  );
}

/** "37 / 120 characters", counted as a reader counts them (code points), as the server does. */
export function charCount(text: string): number {
  return [...text].length;
}
