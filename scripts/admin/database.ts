// Operator command bringing the database schema up to date (the API does it at start too).
import { migrateLatest } from "../../api/src/db/migrate";
import type { AdminCommand } from "./command";

const migrateCommand: AdminCommand = {
  name: "migrate",
  summary: "apply pending database migrations (safe to repeat)",
  options: {},
  async run(context) {
    const applied = await migrateLatest(context.db);
    return { text: applied.length === 0 ? "Schema is up to date." : `Applied: ${applied.join(", ")}`, json: { applied } };
  },
};

export const commands: AdminCommand[] = [migrateCommand];
