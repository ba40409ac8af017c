/**
 * What every area's OpenAPI fragment (functions/<area>/openapi/) builds on: the shape of an operation's
 * entry, the zod schemas more than one area uses, and the error body the areas share.
 * Wire shapes are zod schemas. Objects are open (clients ignore fields they do not recognize, spec
 * "Versioning") but every documented field is required with its exact type; the handler tests validate
 * every response they receive against the document, so a shape that drifts from the code fails a test.
 * Loaded by synth (the document goes into the front door's bucket) and by `npm run openapi`, never by
 * the API functions: zod and nothing else.
 */
import * as z from 'zod';
import type { JsonSchema } from './domain/json-schema';
import type { RequestDeclaration } from './http/request-declaration';

export type { JsonSchema };

/** A zod schema, classic or `zod/mini` (a request body the handler parses with may be `zod/mini`). */
export type ZodSchema = z.core.$ZodType;

/** A response header the document lists (X-Correlation-ID and Retry-After are added where they apply). */
export interface ResponseHeaderDoc {
  readonly schema: ZodSchema | JsonSchema;
  readonly description: string;
}

/**
 * What the document says of a public route beyond the route table: summary, tag, its request
 * declaration, success response and documented error statuses (functions/openapi/document.ts turns
 * each entry into an operation).
 */
export interface OperationDoc {
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  /**
   * The operation's request declaration (`<area>/openapi/<area>-requests.ts`), the one its handler reads
   * with: the document shows its path, query and header parameters (Authorization is the auth kind's)
   * and its body.
   */
  readonly request?: RequestDeclaration;
  readonly ok: {
    readonly status: number;
    readonly description: string;
    readonly content?: Readonly<Record<string, ZodSchema>>;
    readonly headers?: Readonly<Record<string, ResponseHeaderDoc>>;
  };
  /** Answers with no body besides `ok` and the errors (a 304 to a conditional GET), and their headers. */
  readonly bodyless?: Readonly<Record<number, { readonly description: string; readonly headers?: Readonly<Record<string, ResponseHeaderDoc>> }>>;
  /** Error statuses this operation documents (bodies in the area's error shape). */
  readonly errors: readonly number[];
  /** What an error status means for this operation, where it says more than the document's common text. */
  readonly errorDescriptions?: Readonly<Partial<Record<number, string>>>;
}

/** A response or body content map with one JSON entry. */
export const json = (schema: ZodSchema) => ({ 'application/json': schema });

export const isoTime = z.string().meta({ format: 'date-time', description: 'ISO 8601, UTC, millisecond precision' });
export const uuid = z.string().meta({ format: 'uuid' });

/** The error body of areas A and D, and of area C's authentication (document.ts picks an area's shape per status). */
export const errorObject = z
  .object({ error: z.object({ code: z.string(), message: z.string() }) })
  .meta({ title: 'Error', description: '`{ error: { code, message } }` (areas A and D, area C authentication)' });
