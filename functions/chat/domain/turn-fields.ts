/**
 * The fields a chat turn takes the same way in both of area B's request shapes (chat completions and
 * the Responses API): one rule each, read and documented identically by both field tables.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { JsonSchema } from '../../kernel/domain/json-schema';
import { isRecord } from '../../kernel/domain/request-rule';
import { utf8Length } from '../../kernel/domain/utf8';
import { field, ignored, present } from './request-fields';

export interface FileReference {
  readonly fileId: string;
  readonly fileName: string;
}

/** Generation options of the OpenAI shape that the platform passes on to the model (those a model takes). */
export interface GenerationOptions {
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  readonly stop?: readonly string[];
  /** Best-effort determinism, for the models that take a seed (an OpenAI-compatible upstream). */
  readonly seed?: number;
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
  /** OpenAI's reasoning effort (`reasoning.effort`, `reasoning_effort`): passed on as given to models that reason. */
  readonly reasoningEffort?: string;
}

/** The options a request gave, without those it left out. */
export function generationOptions(
  given: { readonly [K in keyof Required<GenerationOptions>]?: Required<GenerationOptions>[K] | undefined },
): GenerationOptions {
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as GenerationOptions;
}

export const VARIABLE_LIMITS = { maxEntries: 20, maxValueLength: 2048, namePattern: /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/ } as const;
export const MAX_FILE_REFERENCES = 100;
/**
 * One message's content: 256 KiB of UTF-8. A message is stored as one DynamoDB item (400 KB at most,
 * with its attributes), so a larger one could never be recorded; it is refused before anything is written.
 */
export const MAX_MESSAGE_BYTES = 256 * 1024;
/** OpenAI's own bound on `metadata`: 16 pairs, keys of 64 characters, values of 512. */
const METADATA_LIMITS = { maxEntries: 16, maxKeyLength: 64, maxValueLength: 512 } as const;
const MAX_TOKENS = 200_000;

/** A message's text (found at `where`) within MAX_MESSAGE_BYTES. */
export function boundedText(text: string, where: string): string {
  if (utf8Length(text) > MAX_MESSAGE_BYTES) throw badRequest(`${where} is too large: at most ${MAX_MESSAGE_BYTES} bytes (256 KiB) of UTF-8 per message`);
  return text;
}

export function numberIn(v: unknown, name: string, min: number, max: number, integer = false): number | undefined {
  if (!present(v)) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw badRequest(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return v;
}
export const numberField = (name: string, min: number, max: number) =>
  field({ type: 'number', minimum: min, maximum: max }, (v) => numberIn(v, name, min, max));
export const TOKEN_LIMIT_SCHEMA: JsonSchema = { type: 'integer', minimum: 1, maximum: MAX_TOKENS };
/** A bound on the answer's tokens, under the name the request gave it. */
export const tokenLimit = (v: unknown, name: string) => numberIn(v, name, 1, MAX_TOKENS, true);

/** `variables`: at most 20 entries, names matching the pattern, values strings of at most 2048 characters. */
export function parseVariables(raw: unknown): Record<string, string> {
  if (raw === undefined) return {};
  if (!isRecord(raw)) throw badRequest('variables must be an object of string values');
  const entries = Object.entries(raw);
  if (entries.length > VARIABLE_LIMITS.maxEntries) throw badRequest(`variables: at most ${VARIABLE_LIMITS.maxEntries} entries per request`);
  for (const [name, value] of entries) {
    if (!VARIABLE_LIMITS.namePattern.test(name)) throw badRequest(`variables: invalid name "${name.slice(0, 80)}": must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`);
    if (typeof value !== 'string') throw badRequest(`variables.${name} must be a string`);
    if (value.length > VARIABLE_LIMITS.maxValueLength) throw badRequest(`variables.${name}: at most ${VARIABLE_LIMITS.maxValueLength} characters`);
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/** The shape of `files`: up to 100 `{ fileId, fileName }` references (existence is checked by the use case). */
export function parseFileReferences(raw: unknown): FileReference[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw badRequest('files must be an array of { fileId, fileName }');
  if (raw.length > MAX_FILE_REFERENCES) throw badRequest(`files: at most ${MAX_FILE_REFERENCES} references per request`);
  return raw.map((f, i) => {
    if (!isRecord(f) || typeof f.fileId !== 'string' || f.fileId.length === 0 || typeof f.fileName !== 'string' || f.fileName.length === 0) {
      throw badRequest(`files[${i}] must be { fileId: string, fileName: string }`);
    }
    const extra = Object.keys(f).filter((k) => k !== 'fileId' && k !== 'fileName');
    if (extra.length) throw badRequest(`files[${i}] has unsupported fields: ${extra.join(', ')}`);
    return { fileId: f.fileId, fileName: f.fileName };
  });
}

/** The fields both request shapes take as they are. */
export const TURN_FIELDS = {
  model: field({ type: 'string', description: "The app's appNameId (appname-<number>); another is a 404" }, (v) => {
    if (typeof v !== 'string') throw badRequest('model must be a string');
    return v;
  }),
  stream: field({ type: 'boolean' }, (v) => {
    if (v !== undefined && typeof v !== 'boolean') throw badRequest('stream must be a boolean');
    return v === true;
  }),
  chatSessionId: field({ type: 'string', minLength: 1, description: 'Continues this session of the app (X-Chat-Session-ID does the same)' }, (v) => {
    if (v !== undefined && (typeof v !== 'string' || v.length === 0)) throw badRequest('chatSessionId must be a non-empty string');
    return v as string | undefined;
  }),
  variables: field(
    {
      type: 'object',
      maxProperties: VARIABLE_LIMITS.maxEntries,
      propertyNames: { pattern: VARIABLE_LIMITS.namePattern.source },
      additionalProperties: { type: 'string', maxLength: VARIABLE_LIMITS.maxValueLength },
      description: 'Session variables for the app’s MCP connections',
    },
    (v) => parseVariables(v),
  ),
  files: field(
    {
      type: 'array',
      maxItems: MAX_FILE_REFERENCES,
      items: {
        type: 'object',
        properties: { fileId: { type: 'string', minLength: 1 }, fileName: { type: 'string', minLength: 1 } },
        required: ['fileId', 'fileName'],
        additionalProperties: false,
      },
    },
    (v) => parseFileReferences(v),
  ),
  temperature: numberField('temperature', 0, 2),
  top_p: numberField('top_p', 0, 1),
  parallel_tool_calls: field({ type: ['boolean', 'null'], description: 'false: at most one tool call a turn' }, (v) => {
    if (present(v) && typeof v !== 'boolean') throw badRequest('parallel_tool_calls must be a boolean');
    return v !== false;
  }),
  user: ignored({ type: 'string', maxLength: 256, description: 'the app’s consumer is the session’s' }, (v) => {
    if (typeof v !== 'string' || v.length > 256) throw badRequest('user must be a string of at most 256 characters');
  }),
  /** OpenAI's `metadata`, checked and kept as given (a response echoes it). */
  metadata: field(
    {
      type: 'object',
      maxProperties: METADATA_LIMITS.maxEntries,
      propertyNames: { maxLength: METADATA_LIMITS.maxKeyLength },
      additionalProperties: { type: 'string', maxLength: METADATA_LIMITS.maxValueLength },
      description: 'Accepted and ignored',
    },
    (v): Record<string, string> => {
      if (!present(v)) return {};
      const ok =
        isRecord(v) &&
        Object.keys(v).length <= METADATA_LIMITS.maxEntries &&
        Object.entries(v).every(([k, x]) => k.length <= METADATA_LIMITS.maxKeyLength && typeof x === 'string' && x.length <= METADATA_LIMITS.maxValueLength);
      if (!ok) throw badRequest('metadata must be an object of at most 16 string values (keys of 64, values of 512 characters)');
      return v as Record<string, string>;
    },
  ),
};
