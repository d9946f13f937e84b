// One brand colour: a colour picker and a hex text field kept in step, with the WCAG AA contrast next to them.
import { useId } from "react";
import { colourContrast, HEX } from "./contrast";

export function ColourField({ label, value, fallback, onChange, error, disabled }: { label: string; value: string; fallback: string; onChange: (value: string) => void; error?: string; disabled?: boolean }) {
  const id = useId();
  const effective = HEX.test(value) ? value : value === "" ? fallback : null;
  const contrast = effective ? colourContrast(effective) : null;
  const formatProblem = value !== "" && !HEX.test(value) ? "Write the colour as # and six hex digits, e.g. #0E7490." : undefined;
  const problem = formatProblem ?? error;
  return (
    <fieldset className="colour-field">
      <legend>{label}</legend>
      <div className="inline">
        <div className="field">
          <label htmlFor={`${id}-picker`}>{label}: picker</label>
          <input id={`${id}-picker`} type="color" value={effective ?? fallback} disabled={disabled} onChange={(e) => onChange(e.target.value.toUpperCase())} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-hex`}>{label}: hex code</label>
          <input
            id={`${id}-hex`}
            type="text"
            className="mono"
            maxLength={7}
            placeholder={fallback}
            value={value}
            disabled={disabled}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-contrast${problem ? ` ${id}-error` : ""}`}
            onChange={(e) => onChange(e.target.value.trim())}
          />
        </div>
      </div>
      {problem && (
        <p id={`${id}-error`} className="field-error">
          {problem}
        </p>
      )}
      <p id={`${id}-contrast`} role="status" className={contrast && !contrast.aa ? "contrast warn" : "contrast"}>
        {value === "" && `Not set: the default ${fallback} is used. `}
        {contrast && (contrast.aa ? `Contrast ${contrast.ratio}:1, meets WCAG AA.` : `Warning: ${contrast.warning}`)}
      </p>
    </fieldset>
  );
}
