// Small HTTP helpers for tests.

/** The parsed JSON body; tests read it freely and assert on what they read. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function json(res: Response): Promise<any> {
  return res.json();
}
