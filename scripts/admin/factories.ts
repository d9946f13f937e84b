// Operator commands on factory profiles: set and show a factory's facility identifiers (GS1 GLN, Open Supply Hub id),
// which passports give as their facilityId. They sit outside the profile the registry's metadata hash anchors.
import { facilityIdsOf, setFacilityIds, type FacilityIds } from "../../api/src/factories/facility-ids";
import { integerOption, stringOption, UsageError, type AdminCommand, type CommandContext, type OptionSpec } from "./command";

const factoryOption: Record<string, OptionSpec> = {
  factory: { type: "string", required: true, description: "registry id of the factory (it must have a profile)" },
};

function factoryId(context: CommandContext): number {
  const id = integerOption(context, "factory", 1, 999_999_999);
  if (id === undefined) throw new UsageError("--factory is required");
  return id;
}

function idsText(id: number, ids: FacilityIds): string {
  return [`factory ${id}:`, `  gln    ${ids.gln ?? "(not set)"}`, `  os_id  ${ids.osId ?? "(not set)"}`].join("\n");
}

const idsJson = (id: number, ids: FacilityIds) => ({ factory_id: id, gln: ids.gln, os_id: ids.osId });

const setFactoryIdsCommand: AdminCommand = {
  name: "set-factory-ids",
  summary: "set a factory's GS1 GLN and Open Supply Hub id (a flag left out keeps its value)",
  options: {
    ...factoryOption,
    gln: { type: "string", description: 'GLN of the site: 13 digits with a valid check digit; "" clears it' },
    "os-id": { type: "string", description: 'Open Supply Hub id, e.g. BD2019085TJ0JW3; "" clears it' },
  },
  async run(context) {
    const id = factoryId(context);
    const gln = stringOption(context, "gln");
    const osId = stringOption(context, "os-id");
    if (gln === undefined && osId === undefined) throw new UsageError("give --gln, --os-id or both");
    const ids = await setFacilityIds(context.db, id, { gln, osId }, { gln: "--gln", osId: "--os-id" });
    return { text: `Facility identifiers set.\n${idsText(id, ids)}`, json: idsJson(id, ids) };
  },
};

const showFactoryIdsCommand: AdminCommand = {
  name: "show-factory-ids",
  summary: "show a factory's GS1 GLN and Open Supply Hub id",
  options: factoryOption,
  async run(context) {
    const id = factoryId(context);
    const ids = await facilityIdsOf(context.db, id);
    return { text: idsText(id, ids), json: idsJson(id, ids) };
  },
};

export const commands: AdminCommand[] = [setFactoryIdsCommand, showFactoryIdsCommand];
