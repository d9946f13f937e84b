// Rows that arrive inside a statement as JSON (row_to_json, json_agg subqueries that fold a related read into the
// statement of its parent): what Postgres' JSON turns into text is read back here into the types pg gives columns.

/** `json` with each of `columns` that holds a time (JSON text) as a Date; null stays null. */
export function withDates<Row>(json: Record<string, unknown>, columns: readonly string[]): Row {
  const row = { ...json };
  for (const column of columns) row[column] = json[column] === null || json[column] === undefined ? json[column] : new Date(json[column] as string);
  return row as Row;
}
