/** Identifier formats. A leaf module: no imports, so any layer (and synth) may load it. */

/** A UUID in canonical form, any version, either case: what every resource id of the platform is. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` can name a resource at all; anything else never reaches the table as a key. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
