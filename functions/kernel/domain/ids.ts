/** Identifier formats. A leaf module: no imports at run time, so any layer (and synth, with the route tables) may load it. */
import type { JsonSchema } from './json-schema';

/** A UUID in canonical form, any version, either case: what every resource id of the platform is, alone or after a prefix. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` can name a resource at all; anything else never reaches the table as a key. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * A path parameter of a route: the request atom (its JSON Schema and the rule that reads it, the shape
 * of a request rule in kernel/http/request-declaration.ts) written here, with no imports, so the route
 * tables can declare it. `read` answers undefined for a value that names no resource: the HTTP kit
 * answers that with the route's 404 before the handler runs (kernel/http/kit.ts).
 */
export interface PathParam {
  readonly schema: JsonSchema;
  read(raw: string): string | undefined;
}

/** A resource id that is a UUID; anything else names no resource. */
export function uuidPathParam(description: string): PathParam {
  return { schema: { type: 'string', format: 'uuid', description }, read: (raw) => (UUID.test(raw) ? raw : undefined) };
}

/** A resource id minted as `<prefix><uuid>` (`ful_…`); anything else names no resource. */
export function prefixedUuidPathParam(prefix: string, description: string): PathParam {
  const hex = (n: number) => `[0-9a-fA-F]{${n}}`;
  const pattern = `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${[8, 4, 4, 4, 12].map(hex).join('-')}$`;
  const shape = new RegExp(pattern);
  return {
    schema: { type: 'string', pattern, description },
    read: (raw) => (shape.test(raw) ? raw : undefined),
  };
}

/** A path parameter the handler judges by its own rule (a job's name): any text reads. */
export function textPathParam(description: string): PathParam {
  return { schema: { type: 'string', description }, read: (raw) => raw };
}
