// Operator commands for the EU registry (docs/registry.md): a brand's automatic registration of its passports.
import { getBrand } from "../../api/src/brands/service";
import { setAutomaticRegistration } from "../../api/src/registry/registration";
import { registryAutoOf } from "../../api/src/registry/registrations.repo";
import { brandOption, requiredOption, stringOption, UsageError, type AdminCommand } from "./command";

const setRegistryAutoCommand: AdminCommand = {
  name: "set-registry-auto",
  summary: "turn a brand's automatic EU registry registration on or off (every issuance and new version); audited",
  options: { ...brandOption, to: { type: "string", description: '"on" or "off"' } },
  async run(context) {
    const brand = await getBrand(context.db, requiredOption(context, "brand"));
    const to = stringOption(context, "to");
    if (to !== "on" && to !== "off") throw new UsageError('--to must be "on" or "off"');
    await setAutomaticRegistration(context.db, brand, { system: "operator CLI" }, to === "on");
    const on = await registryAutoOf(context.db, brand.id);
    return { text: `${brand.slug}: automatic registration ${on ? "on" : "off"}`, json: { slug: brand.slug, registry_auto: on } };
  },
};

export const commands: AdminCommand[] = [setRegistryAutoCommand];
