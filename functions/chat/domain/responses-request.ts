/**
 * The Responses API request (`POST /api/v1/responses`, OpenAI's Responses shape), read into the same
 * chat turn as a chat completion: `input` items become the turn's messages, `instructions` a system
 * instruction for this response only, `previous_response_id` the session it continues. Each field is
 * declared once (FIELDS): the rule that reads it and the JSON Schema the OpenAPI document shows; the
 * items of `input` are responses-input.ts.
 * Rules run in the chat request's order: `model`, `input`, the app (404), then every other field.
 */
import { badRequest, notFound } from '../../kernel/domain/errors';
import type { JsonSchema } from '../../kernel/domain/json-schema';
import { isRecord } from '../../kernel/domain/request-rule';
import type { ChatRequest } from './chat-request';
import { jsonSchemaFormatOf, TOOL_NAME_PATTERN, type ClientTool, type ResponseFormat } from './client-tools';
import { field, fieldReader, ignored, onlyKeys, present, requestSchema, requireAppAndKnownFields } from './request-fields';
import { boundedText as bounded, generationOptions, numberIn, TOKEN_LIMIT_SCHEMA, tokenLimit, TURN_FIELDS } from './turn-fields';
import { responseIdSession } from './response-ids';
import { INPUT_ITEM, MAX_ITEMS, parseInput, type ResponseInputItem } from './responses-input';
import { parseResponsesToolChoice, parseResponsesTools, RESPONSES_TOOL_CHOICE_SCHEMA, RESPONSES_TOOLS_SCHEMA } from './responses-tools';
import { INCLUDABLE, OPTIONAL_FIELDS, parseReasoning, REASONING_SCHEMA, SERVICE_TIERS, type ReasoningSetting } from './responses-options';

export interface ResponsesRequest {
  /** The turn, its messages still to be completed by the input's references (app/resolve-response-input.ts). */
  readonly turn: Omit<ChatRequest, 'messages'>;
  readonly input: readonly ResponseInputItem[];
  /** What `include` asked for. */
  readonly include: readonly string[];
  /** A system instruction for this response only (not stored, not carried to the next). */
  readonly instructions?: string;
  /** The session `previous_response_id` names. */
  readonly previousSessionId?: string;
  /** What the response object echoes. */
  readonly echo: {
    readonly instructions: string | null;
    readonly maxOutputTokens: number | null;
    readonly previousResponseId: string | null;
    readonly temperature: number | null;
    readonly topP: number | null;
    readonly toolChoice: unknown;
    /** The function tools offered (a namespace's members included), as the Open Responses document's FunctionTool. */
    readonly tools: readonly ClientTool[];
    readonly reasoning: ReasoningSetting;
    readonly maxToolCalls: number | null;
    readonly topLogprobs: number;
    readonly text: unknown;
    readonly parallelToolCalls: boolean;
    readonly metadata: Readonly<Record<string, string>>;
    readonly store: boolean;
    readonly safetyIdentifier: string | null;
    readonly promptCacheKey: string | null;
  };
  /** The `conversation` the turn continues, as sent (app/resolve-response-input.ts finds its session). */
  readonly conversationId?: string;
}

/** `text.format`: the Responses spelling of `response_format` (the schema's fields sit on the format itself). */
function parseTextFormat(raw: unknown): ResponseFormat {
  if (raw === undefined || raw === null) return { type: 'text' };
  if (!isRecord(raw)) throw badRequest('text must be { format: { type } }');
  onlyKeys(raw, ['format', 'verbosity'], 'text');
  if (raw.verbosity !== undefined && raw.verbosity !== null && !['low', 'medium', 'high'].includes(raw.verbosity as string))
    throw badRequest('text.verbosity must be low, medium or high');
  const f = raw.format;
  if (f === undefined || f === null) return { type: 'text' };
  if (!isRecord(f)) throw badRequest('text.format must be { type: "text" | "json_object" | "json_schema" }');
  if (f.type === 'text' || f.type === 'json_object') {
    onlyKeys(f, ['type'], 'text.format');
    return { type: f.type };
  }
  if (f.type !== 'json_schema') throw badRequest('text.format.type must be text, json_object or json_schema');
  onlyKeys(f, ['type', 'name', 'schema', 'strict', 'description'], 'text.format');
  return jsonSchemaFormatOf(f, 'text.format', { nulls: true, schemaRequired: true });
}

/** Every field of the request, once: its rule and its schema. Shared fields read as the chat request reads them. */
const FIELDS = {
  model: TURN_FIELDS.model,
  input: field(
    { anyOf: [{ type: 'string' }, { type: 'array', minItems: 1, maxItems: MAX_ITEMS, items: INPUT_ITEM }], description: 'A user message, or items' },
    parseInput,
  ),
  instructions: field({ type: ['string', 'null'], description: 'A system instruction for this response only' }, (v) => {
    if (!present(v)) return undefined;
    if (typeof v !== 'string') throw badRequest('instructions must be a string');
    return bounded(v, 'instructions');
  }),
  previous_response_id: field({ type: ['string', 'null'], description: 'Continues the session of that response (as it is now)' }, (v) => {
    if (!present(v)) return undefined;
    if (typeof v !== 'string') throw badRequest('previous_response_id must be a string');
    return v;
  }),
  stream: TURN_FIELDS.stream,
  stream_options: ignored(
    { type: ['object', 'null'], properties: { include_obfuscation: { type: 'boolean' } }, additionalProperties: false, description: 'no obfuscation is added' },
    (v) => {
      if (
        !isRecord(v) ||
        Object.keys(v).some((k) => k !== 'include_obfuscation') ||
        (v.include_obfuscation !== undefined && typeof v.include_obfuscation !== 'boolean')
      )
        throw badRequest('stream_options must be { include_obfuscation: boolean }');
    },
  ),
  chatSessionId: TURN_FIELDS.chatSessionId,
  variables: TURN_FIELDS.variables,
  files: TURN_FIELDS.files,
  temperature: TURN_FIELDS.temperature,
  top_p: TURN_FIELDS.top_p,
  max_output_tokens: field(TOKEN_LIMIT_SCHEMA, (v) => tokenLimit(v, 'max_output_tokens')),
  tools: field(RESPONSES_TOOLS_SCHEMA, parseResponsesTools),
  tool_choice: field(RESPONSES_TOOL_CHOICE_SCHEMA, (v, body) => parseResponsesToolChoice(v, parseResponsesTools(body.tools))),
  parallel_tool_calls: TURN_FIELDS.parallel_tool_calls,
  text: field(
    {
      type: 'object',
      properties: {
        format: {
          anyOf: [
            { type: 'object', properties: { type: { enum: ['text', 'json_object'] } }, required: ['type'], additionalProperties: false },
            {
              type: 'object',
              properties: {
                type: { const: 'json_schema' },
                name: { type: 'string', pattern: TOOL_NAME_PATTERN.source },
                schema: { type: 'object' },
                strict: { type: ['boolean', 'null'] },
                description: { type: ['string', 'null'] },
              },
              required: ['type', 'name', 'schema'],
              additionalProperties: false,
            },
          ],
        },
        verbosity: { enum: ['low', 'medium', 'high', null], description: 'Accepted and ignored' },
      },
      additionalProperties: false,
      description: 'Structured output, checked by the platform as response_format is on chat completions',
    },
    parseTextFormat,
  ),
  store: ignored({ type: 'boolean', description: 'a session is stored as its app’s settings say' }, (v) => {
    if (typeof v !== 'boolean') throw badRequest('store must be a boolean');
  }),
  metadata: TURN_FIELDS.metadata,
  user: TURN_FIELDS.user,
  safety_identifier: ignored({ type: 'string', maxLength: 64 }, (v) => {
    if (typeof v !== 'string' || v.length > 64) throw badRequest('safety_identifier must be a string of at most 64 characters');
  }),
  prompt_cache_key: ignored({ type: 'string', maxLength: 256 }, (v) => {
    if (typeof v !== 'string' || v.length > 256) throw badRequest('prompt_cache_key must be a string of at most 256 characters');
  }),
  truncation: ignored({ enum: ['auto', 'disabled', null], description: 'a turn over the model’s context fails rather than dropping history' }, (v) => {
    if (v !== null && v !== 'auto' && v !== 'disabled') throw badRequest('truncation must be auto or disabled');
  }),
  include: field(
    {
      type: ['array', 'null'],
      items: { enum: INCLUDABLE },
      description: 'reasoning.encrypted_content returns the reasoning items the model gave; the others add nothing here',
    },
    (v): readonly string[] => {
      if (!present(v)) return [];
      if (!Array.isArray(v) || v.length > 16 || !v.every((x) => INCLUDABLE.includes(x as string)))
        throw badRequest(`include must be an array of: ${INCLUDABLE.join(', ')}`);
      return v as string[];
    },
  ),
  reasoning: field(REASONING_SCHEMA, parseReasoning),
  max_tool_calls: field(
    {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 1024,
      description: 'At most this many calls of the tools the platform runs (MCP, documents) in the response',
    },
    (v) => numberIn(v, 'max_tool_calls', 1, 1024, true),
  ),
  top_logprobs: ignored(
    { type: ['integer', 'null'], minimum: 0, maximum: 20, description: 'log probabilities are not available: every logprobs list is empty' },
    (v) => {
      numberIn(v, 'top_logprobs', 0, 20, true);
    },
  ),
  service_tier: ignored({ enum: [...SERVICE_TIERS, null], description: 'every response runs at the default tier' }, (v) => {
    if (v !== null && !SERVICE_TIERS.includes(v as string)) throw badRequest(`service_tier must be one of ${SERVICE_TIERS.join(', ')}`);
  }),
  ...OPTIONAL_FIELDS,
  conversation: field(
    {
      anyOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false }, { type: 'null' }],
      description: "conv_…: continues that conversation (a chat session of the key's app); the turn's input and answer become its items",
    },
    (v): string | undefined => {
      if (!present(v)) return undefined;
      const id = typeof v === 'string' ? v : isRecord(v) && typeof v.id === 'string' && Object.keys(v).length === 1 ? v.id : undefined;
      if (id === undefined) throw badRequest('conversation must be a conversation id or { id }');
      return id;
    },
  ),
};

/** The JSON Schema of the request body, from the same field table the rules read (for the OpenAPI document). */
export function responsesRequestSchema(): JsonSchema {
  return requestSchema('ResponseCreateRequest', FIELDS, ['model', 'input']);
}

export function parseResponsesRequest(body: Record<string, unknown>, appNameId: string): ResponsesRequest {
  const read = fieldReader(FIELDS, body);
  const model = read('model');
  if (body.input === undefined) throw badRequest('input must be a string or a non-empty array of items');
  const input = read('input');
  requireAppAndKnownFields(body, FIELDS, model, appNameId);
  const instructions = read('instructions');
  const previousResponseId = read('previous_response_id');
  const previousSessionId = previousResponseId !== undefined ? responseIdSession(previousResponseId) : undefined;
  if (previousResponseId !== undefined && previousSessionId === undefined) throw notFound('Previous response not found');
  const stream = read('stream');
  read('stream_options');
  const chatSessionId = read('chatSessionId');
  const variables = read('variables');
  const files = read('files');
  const temperature = read('temperature');
  const topP = read('top_p');
  const maxTokens = read('max_output_tokens');
  const tools = read('tools');
  // The tools as read once: their schemas are checked once.
  const toolChoice = parseResponsesToolChoice(body.tool_choice, tools);
  const parallelToolCalls = read('parallel_tool_calls');
  const responseFormat = read('text');
  read('store');
  const metadata = read('metadata');
  read('user');
  read('safety_identifier');
  read('prompt_cache_key');
  read('truncation');
  const include = read('include');
  const reasoning = read('reasoning');
  const maxToolCalls = read('max_tool_calls');
  read('top_logprobs');
  read('service_tier');
  for (const name of Object.keys(OPTIONAL_FIELDS) as (keyof typeof OPTIONAL_FIELDS)[]) read(name);
  const offered = toolChoice.choice.type === 'none' ? { functions: [], mcpServers: [] } : toolChoice.tools;
  const conversationId = read('conversation');
  if (conversationId !== undefined && previousResponseId !== undefined)
    throw badRequest("Mutually exclusive parameters: Ensure you are only providing one of: 'previous_response_id' or 'conversation'.");
  return {
    turn: {
      model,
      stream,
      streamUsage: false,
      ...(chatSessionId !== undefined ? { chatSessionId } : {}),
      variables,
      files,
      options: generationOptions({ temperature, topP, maxTokens, reasoningEffort: reasoning.effort ?? undefined }),
      tools: toolChoice.tools.functions,
      toolChoice: toolChoice.choice,
      parallelToolCalls,
      responseFormat,
      mcpServers: offered.mcpServers,
      ...(maxToolCalls !== undefined ? { maxToolCalls } : {}),
    },
    include,
    input,
    ...(instructions !== undefined ? { instructions } : {}),
    ...(previousSessionId !== undefined ? { previousSessionId } : {}),
    echo: {
      instructions: instructions ?? null,
      maxOutputTokens: maxTokens ?? null,
      previousResponseId: previousResponseId ?? null,
      temperature: temperature ?? null,
      topP: topP ?? null,
      toolChoice: toolChoice.echo,
      tools: toolChoice.tools.functions,
      reasoning,
      maxToolCalls: maxToolCalls ?? null,
      topLogprobs: typeof body.top_logprobs === 'number' ? body.top_logprobs : 0,
      text: { format: body.text && isRecord(body.text) && body.text.format ? body.text.format : { type: 'text' } },
      parallelToolCalls,
      metadata,
      store: body.store !== false,
      safetyIdentifier: typeof body.safety_identifier === 'string' ? body.safety_identifier : null,
      promptCacheKey: typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : null,
    },
    ...(conversationId !== undefined ? { conversationId } : {}),
  };
}
