// The two ways a screen talks to the API: loading what it shows (useResource) and running what a button or form asks
// (useAction), each with the state the screen needs to announce progress and errors.
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../api/client";

export type Resource<T> = {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
  /** Replace what is shown with what a write answered, without asking again. */
  setData: (data: T) => void;
};

function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, "CLIENT_ERROR", error instanceof Error ? error.message : String(error));
}

/** Loads `load()` when the screen opens and whenever `deps` change; an older answer never overwrites a newer one. */
export function useResource<T>(load: () => Promise<T>, deps: readonly unknown[]): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let current = true;
    setState((previous) => ({ data: previous.data, loading: true }));
    loadRef.current().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState((previous) => ({ data: previous.data, error: asApiError(error), loading: false })),
    );
    return () => {
      current = false;
    };
    // The caller names what the load depends on; the latest `load` is read through the ref.
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const setData = useCallback((data: T) => setState({ data, loading: false }), []);
  return { data: state.data, error: state.error, loading: state.loading, reload, setData };
}

export type Action = {
  busy: boolean;
  error: ApiError | undefined;
  /** What the last run reported on success, for the status line. */
  message: string | undefined;
  run: (work: () => Promise<string | void>) => Promise<boolean>;
  reset: () => void;
};

/** A write the user starts: busy while it runs, then a success message or the server's error. */
export function useAction(): Action {
  const [state, setState] = useState<{ busy: boolean; error?: ApiError; message?: string }>({ busy: false });
  const busyRef = useRef(false);
  const run = useCallback(async (work: () => Promise<string | void>) => {
    if (busyRef.current) return false;
    busyRef.current = true;
    setState({ busy: true });
    try {
      const message = await work();
      setState({ busy: false, message: message ?? undefined });
      return true;
    } catch (error) {
      setState({ busy: false, error: asApiError(error) });
      return false;
    } finally {
      busyRef.current = false;
    }
  }, []);
  const reset = useCallback(() => setState({ busy: false }), []);
  return { busy: state.busy, error: state.error, message: state.message, run, reset };
}

/** After a form's own check fails: focus the first field marked invalid, so its problem is read out. */
export function focusFirstInvalid(form: HTMLFormElement): void {
  window.requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
