// What a screen says while it loads, when a call fails and when a write succeeded. Errors are role="alert" and
// successes role="status", so both are announced without moving focus.
import type { ReactNode } from "react";
import type { ApiError } from "../api/client";
import type { Action } from "./hooks";

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

function describe(error: ApiError): string {
  if (error.status === 403 && error.code === "FORBIDDEN") return "Your role does not allow this. Ask an owner or admin of your brand.";
  if (error.status === 404 && error.code === "NOT_FOUND" && /route|endpoint/i.test(error.message)) return "This part of the dashboard is not available on this server yet.";
  return error.message;
}

/** An error from the API; `announce` false when it sits inside a live region already. */
export function ErrorNotice({ error, title, announce = true }: { error: ApiError; title?: string; announce?: boolean }) {
  const problems = error.details.filter((detail) => detail.problem);
  return (
    <div className="notice error" role={announce ? "alert" : undefined}>
      <p>
        <strong>{title ?? "That did not work."}</strong> {describe(error)}
      </p>
      {problems.length > 0 && (
        <ul>
          {problems.map((detail, index) => (
            <li key={index}>
              {detail.field ? <code>{detail.field}</code> : null} {detail.problem}
            </li>
          ))}
        </ul>
      )}
      {error.requestId && <p className="request-id">Reference: {error.requestId}</p>}
    </div>
  );
}

/** The live regions of one action: always in the page, so what appears in them is announced. */
export function ActionStatus({ action, busyText }: { action: Action; busyText?: string }) {
  return (
    <>
      <div role="status" className="live">
        {(action.busy || action.message) && <p className={action.busy ? "notice" : "notice success"}>{action.busy ? (busyText ?? "Working…") : action.message}</p>}
      </div>
      <div role="alert" className="live">
        {action.error && <ErrorNotice error={action.error} announce={false} />}
      </div>
    </>
  );
}

export function Forbidden({ what }: { what: string }) {
  return (
    <div className="notice" role="note">
      <p>Your role does not allow {what}. Ask an owner or admin of your brand if you need it.</p>
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}
