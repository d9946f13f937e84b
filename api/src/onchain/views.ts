// Reads of the indexer's views fail with "undefined table" until Ponder has published them; that is a 503, not a 500.
import { ServiceUnavailableError } from "../errors";

const UNDEFINED_TABLE = "42P01";

/** Whether `error` says the indexer's views are not published yet (Postgres' "undefined table"). */
export const viewsUnpublished = (error: unknown): boolean => (error as { code?: string }).code === UNDEFINED_TABLE;

export async function fromViews<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (viewsUnpublished(error)) {
      throw new ServiceUnavailableError("The chain indexer has not published its data yet; retry shortly.");
    }
    throw error;
  }
}
