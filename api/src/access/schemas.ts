// JSON Schemas of access classes (docs/access.md): the `access` block of a read, and the dashboard's routes.
import type { JsonSchema } from "../validation";
import { ACCESS_CLASSES } from "./classes";
import { READER_TYPES } from "./readers";

export const accessBlockSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["class", "withheld"],
  description:
    "the reader's access class and the element paths withheld from it (absent from the content). With any withheld, the content served no longer hashes to the anchored data hash: a reader who may see them all (or the brand) checks it (docs/access.md)",
  properties: {
    class: { enum: ACCESS_CLASSES },
    withheld: { type: "array", items: { type: "string" }, description: "outermost withheld element paths, e.g. textile.stages.0.facility.name" },
  },
};

export const readerTypeSchema = { enum: READER_TYPES } as const;
