/** Ends an exhaustive switch: a new attribute type or kind fails to compile here until it is described. */
export function assertNeverType(value: never): never {
  throw new Error(`OpenAPI: no schema for ${String(value)}`);
}
