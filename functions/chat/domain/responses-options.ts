/**
 * The Responses request's options beyond the turn itself: `reasoning` (passed to the models that take
 * it), the values `include` and `service_tier` take, and the fields current clients send that the
 * platform accepts and does not act on (README "Responses API fields"). Each has a rule and a schema.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { JsonSchema } from '../../kernel/domain/json-schema';
import { isRecord } from '../../kernel/domain/request-rule';
import { field, ignored, onlyKeys, present } from './request-fields';

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];
const SUMMARIES = ['auto', 'concise', 'detailed'] as const;
export const INCLUDABLE: readonly string[] = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
];
export const SERVICE_TIERS: readonly string[] = ['auto', 'default', 'flex', 'scale', 'priority', 'fast', 'ultrafast'];

export interface ReasoningSetting {
  readonly effort: ReasoningEffort | null;
  readonly summary: (typeof SUMMARIES)[number] | null;
}

const oneOf = <T extends string>(v: unknown, values: readonly T[], where: string): T | null => {
  if (!present(v)) return null;
  if (!values.includes(v as T)) throw badRequest(`${where} must be one of ${values.join(', ')}`);
  return v as T;
};

export const REASONING_SCHEMA: JsonSchema = {
  type: ['object', 'null'],
  properties: {
    effort: {
      enum: [...REASONING_EFFORTS, null],
      description: 'Passed to models that reason (an OpenAI-compatible upstream; Bedrock models with a reasoning budget)',
    },
    summary: { enum: [...SUMMARIES, null], description: 'Accepted; no summary is produced' },
    generate_summary: { enum: [...SUMMARIES, null], description: 'The older name of summary' },
    context: { enum: ['auto', 'current_turn', 'all_turns', null], description: 'Accepted and ignored' },
    mode: { type: 'string', maxLength: 64, description: 'Accepted and ignored' },
  },
  additionalProperties: false,
};

export function parseReasoning(v: unknown): ReasoningSetting {
  if (!present(v)) return { effort: null, summary: null };
  if (!isRecord(v)) throw badRequest('reasoning must be { effort, summary }');
  onlyKeys(v, ['effort', 'summary', 'generate_summary', 'context', 'mode'], 'reasoning');
  oneOf(v.context, ['auto', 'current_turn', 'all_turns'], 'reasoning.context');
  if (present(v.mode) && (typeof v.mode !== 'string' || v.mode.length > 64)) throw badRequest('reasoning.mode must be a string of at most 64 characters');
  const summary = oneOf(v.summary, SUMMARIES, 'reasoning.summary') ?? oneOf(v.generate_summary, SUMMARIES, 'reasoning.generate_summary');
  return { effort: oneOf(v.effort, REASONING_EFFORTS, 'reasoning.effort'), summary };
}

/** A JSON object or array a client may send under a field the platform accepts and ignores, bounded in depth by the body limit. */
const anyObject = (name: string, description: string) =>
  ignored({ type: ['object', 'null'], description }, (v) => {
    if (!isRecord(v)) throw badRequest(`${name} must be an object`);
  });

/** Fields of the current OpenAI request that clients send and the platform accepts, each checked for its type. */
export const OPTIONAL_FIELDS = {
  background: field({ type: ['boolean', 'null'], const: false, description: 'Background runs are not available: only false' }, (v) => {
    if (present(v) && v !== false) throw badRequest('background: background runs are not available here yet; send the request without it');
    return false;
  }),
  client_metadata: anyObject('client_metadata', 'what an agent CLI says about itself'),
  prompt_cache_retention: ignored({ enum: ['in_memory', 'in-memory', '24h', null], description: 'the platform keeps no prompt cache of its own' }, (v) => {
    if (v !== 'in_memory' && v !== 'in-memory' && v !== '24h') throw badRequest('prompt_cache_retention must be in_memory or 24h');
  }),
  prompt_cache_options: anyObject('prompt_cache_options', 'the platform keeps no prompt cache of its own'),
  context_management: ignored(
    { type: ['array', 'null'], items: { type: 'object' }, description: 'a turn over the model’s context fails rather than compacting' },
    (v) => {
      if (!Array.isArray(v) || v.length > 16 || !v.every(isRecord)) throw badRequest('context_management must be an array of objects');
    },
  ),
  moderation: anyObject('moderation', 'no moderation step runs here'),
  background_options: anyObject('background_options', 'background runs are not available'),
};
