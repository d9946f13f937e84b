// JSON Merge Patch (RFC 7396), as UpdateDPPById applies it: an object member set to null is removed, any other value
// (an array included) replaces what was there, and objects merge member by member. Written out rather than taken
// from a package: the RFC's algorithm is the ten lines below, and test/api/dpp-merge-patch checks every example of
// its Appendix A.
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is { [key: string]: Json } => typeof value === "object" && value !== null && !Array.isArray(value);

export function applyMergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const result: { [key: string]: Json } = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = applyMergePatch(result[name], value);
  }
  return result;
}
