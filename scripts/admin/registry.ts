// The operator CLI's command modules. To add commands, write a module exporting `commands` and add one line here.
import type { AdminCommand } from "./command";

export const MODULES: Array<() => Promise<{ commands: AdminCommand[] }>> = [
  () => import("./brands"),
  () => import("./keys"),
  () => import("./usage"),
  () => import("./database"),
  () => import("./branding"),
  () => import("./dashboard-webhook"),
  () => import("./brand-users"),
  () => import("./tags"),
  () => import("./factories"),
  () => import("./eu-registry"),
  () => import("./access"),
];

export async function loadCommands(): Promise<AdminCommand[]> {
  const modules = await Promise.all(MODULES.map((load) => load()));
  return modules.flatMap((module) => module.commands);
}
