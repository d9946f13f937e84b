// Writes the table of docs/configuration.md from the variables api/src/config.ts declares; the prose around it stays.
import { writeFileSync } from "node:fs";
import { CONFIGURATION_PAGE, readConfigurationPage, withCurrentTable } from "./lib/config-docs";

writeFileSync(CONFIGURATION_PAGE, withCurrentTable(readConfigurationPage()));
