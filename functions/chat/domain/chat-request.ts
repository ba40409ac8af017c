/**
 * The chat-completion request of area B, validated in the spec's order: (1) `model` is a string,
 * (2) `messages` is a non-empty array of { role, content: string }; (3) `model` names the key's app,
 * else 404; (4) `variables` within their limits; (5) `files` references. Every other violation is a 400
 * with a message that names the field; no parameter is silently ignored. Each field is declared once
 * (FIELDS): the rule that reads it and the JSON Schema the OpenAPI document shows for it.
 */
import { badRequest } from '../../platform/domain/errors';
import type { ToolCall } from '../../conversations/domain/session';
import type { JsonSchema } from '../../platform/domain/json-schema';
import { utf8Length } from '../../platform/domain/utf8';
import { field, ignored, isRecord, present, requestSchema, requireAppAndKnownFields } from './request-fields';
import {
  parseResponseFormat,
  parseToolCallId,
  parseToolCalls,
  parseToolChoice,
  parseTools,
  RESPONSE_FORMAT_SCHEMA,
  TOOL_CALLS_SCHEMA,
  TOOL_CHOICE_SCHEMA,
  TOOLS_SCHEMA,
  type ClientTool,
  type ResponseFormat,
  type ToolChoice,
} from './client-tools';

/** A message of the request: `developer` is read as `system`; tool calls and results as the client got and ran them. */
export type ChatMessageInput =
  | { readonly role: 'user' | 'system'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly content: string; readonly toolCallId: string };

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
}

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessageInput[];
  readonly stream: boolean;
  /** Ask for a final usage chunk on a stream (OpenAI `stream_options.include_usage`). */
  readonly streamUsage: boolean;
  readonly chatSessionId?: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly files: readonly FileReference[];
  readonly options: GenerationOptions;
  /** The client's function tools (the platform hands their calls back). */
  readonly tools: readonly ClientTool[];
  readonly toolChoice: ToolChoice;
  /** false: at most one tool call a turn. */
  readonly parallelToolCalls: boolean;
  readonly responseFormat: ResponseFormat;
  /** A system instruction for this turn only, never stored (the Responses API's `instructions`). */
  readonly instructions?: string;
}

export const VARIABLE_LIMITS = { maxEntries: 20, maxValueLength: 2048, namePattern: /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/ } as const;
export const MAX_FILE_REFERENCES = 100;
/**
 * One message's content: 256 KiB of UTF-8. A message is stored as one DynamoDB item (400 KB at most,
 * with its attributes), so a larger one could never be recorded; it is refused before anything is written.
 */
export const MAX_MESSAGE_BYTES = 256 * 1024;

const ROLES: readonly string[] = ['user', 'assistant', 'system', 'developer', 'tool'];
/** The text a content part array may hold: `{type: "text", text}` parts; other parts are rule 8's refusal. */
const CONTENT_REFUSED = 'must be a string or an array of text parts (remote URLs, base64 and multipart content are not supported)';
/** OpenAI's own bound on `metadata`: 16 pairs, keys of 64 characters, values of 512. */
const METADATA_LIMITS = { maxEntries: 16, maxKeyLength: 64, maxValueLength: 512 } as const;

function numberIn(v: unknown, name: string, min: number, max: number, integer = false): number | undefined {
  if (!present(v)) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw badRequest(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return v;
}
const number = (name: string, min: number, max: number) => field({ type: 'number', minimum: min, maximum: max }, (v) => numberIn(v, name, min, max));
const MAX_TOKENS = 200_000;
const tokens = { type: 'integer', minimum: 1, maximum: MAX_TOKENS };
/** A bound on the answer's tokens, under the name the request gave it. */
export const tokenLimit = (v: unknown, name: string) => numberIn(v, name, 1, MAX_TOKENS, true);
export const TOKEN_LIMIT_SCHEMA: JsonSchema = tokens;

/** A message's text: a string, or an array of text parts joined (what the AI SDK sends for a multi-part message). */
function contentText(content: unknown, i: number): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.length > 0 && content.every((p) => isRecord(p) && p.type === 'text' && typeof p.text === 'string')) {
    const extra = content.flatMap((p) => Object.keys(p as Record<string, unknown>).filter((k) => k !== 'type' && k !== 'text'));
    if (extra.length) throw badRequest(`messages[${i}].content parts have unsupported fields: ${[...new Set(extra)].join(', ')}`);
    return content.map((p) => (p as { text: string }).text).join('');
  }
  throw badRequest(`messages[${i}].content ${CONTENT_REFUSED}`);
}

/** The fields each role may carry; `refusal` is what the openai package hands back on an assistant message. */
const MESSAGE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  user: ['role', 'content', 'name'],
  system: ['role', 'content', 'name'],
  developer: ['role', 'content', 'name'],
  assistant: ['role', 'content', 'name', 'tool_calls', 'refusal'],
  // LangChain names the tool on its result message.
  tool: ['role', 'content', 'tool_call_id', 'name'],
};

function parseMessage(m: unknown, i: number): ChatMessageInput {
  if (!isRecord(m) || typeof m.role !== 'string' || !ROLES.includes(m.role)) {
    throw badRequest(`messages[${i}].role must be one of user, assistant, system, developer, tool`);
  }
  const extra = Object.keys(m).filter((k) => !MESSAGE_FIELDS[m.role as string]!.includes(k));
  if (extra.length) throw badRequest(`messages[${i}] has unsupported fields: ${extra.join(', ')}`);
  if (m.name !== undefined && (typeof m.name !== 'string' || m.name.length > 64))
    throw badRequest(`messages[${i}].name must be a string of at most 64 characters`);
  if (m.refusal !== undefined && m.refusal !== null && typeof m.refusal !== 'string') throw badRequest(`messages[${i}].refusal must be a string or null`);
  const toolCalls = m.role === 'assistant' && present(m.tool_calls) ? parseToolCalls(m.tool_calls, `messages[${i}]`) : [];
  // An assistant message that calls tools may have no text (OpenAI sends null).
  const content = toolCalls.length && (m.content === null || m.content === undefined || m.content === '') ? '' : contentText(m.content, i);
  if (utf8Length(content) > MAX_MESSAGE_BYTES)
    throw badRequest(`messages[${i}].content is too large: at most ${MAX_MESSAGE_BYTES} bytes (256 KiB) of UTF-8 per message`);
  switch (m.role) {
    case 'tool':
      return { role: 'tool', content, toolCallId: parseToolCallId(m.tool_call_id, `messages[${i}]`) };
    case 'assistant':
      return { role: 'assistant', content, ...(toolCalls.length ? { toolCalls } : {}) };
    default:
      // `developer` is OpenAI's name for a system instruction to reasoning models: one here.
      return { role: m.role === 'user' ? 'user' : 'system', content };
  }
}

function parseMessages(messages: unknown): ChatMessageInput[] {
  if (!Array.isArray(messages) || messages.length === 0) throw badRequest('messages must be a non-empty array');
  return messages.map(parseMessage);
}

/**
 * Every field of the request, once: its rule and its schema. The rules run in the spec's order:
 * `model`, `messages`, the app check (parseChatRequest), then the rest in this table's order.
 */
const FIELDS = {
  model: field({ type: 'string', description: "The app's appNameId (appname-<number>); another is a 404" }, (v) => {
    if (typeof v !== 'string') throw badRequest('model must be a string');
    return v;
  }),
  messages: field(
    {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          role: { enum: [...ROLES], description: '`developer` is taken as `system`; `tool` answers a tool call of the assistant message before it' },
          content: {
            anyOf: [
              { type: 'string' },
              { type: 'null', description: 'only on an assistant message with tool_calls' },
              {
                type: 'array',
                minItems: 1,
                items: {
                  type: 'object',
                  properties: { type: { const: 'text' }, text: { type: 'string' } },
                  required: ['type', 'text'],
                  additionalProperties: false,
                },
              },
            ],
            description: `At most ${MAX_MESSAGE_BYTES} bytes of UTF-8; text parts are joined; image, file and audio parts are refused (rule 8)`,
          },
          name: { type: 'string', maxLength: 64, description: 'Accepted and ignored' },
          tool_calls: { ...TOOL_CALLS_SCHEMA, description: 'assistant only: the tool calls it made (content may then be null)' },
          tool_call_id: { type: 'string', minLength: 1, maxLength: 256, description: 'tool only: the call this result answers' },
          refusal: { type: ['string', 'null'], description: 'assistant only: accepted and ignored' },
        },
        required: ['role'],
        additionalProperties: false,
      },
    },
    parseMessages,
  ),
  stream: field({ type: 'boolean' }, (v) => {
    if (v !== undefined && typeof v !== 'boolean') throw badRequest('stream must be a boolean');
    return v === true;
  }),
  chatSessionId: field({ type: 'string', minLength: 1, description: 'Continues this session of the app (X-Chat-Session-ID does the same)' }, (v) => {
    if (v !== undefined && (typeof v !== 'string' || v.length === 0)) throw badRequest('chatSessionId must be a non-empty string');
    return v as string | undefined;
  }),
  stream_options: field(
    { type: ['object', 'null'], properties: { include_usage: { type: 'boolean' } }, additionalProperties: false, description: 'Only with stream: true' },
    (v, body) => parseStreamOptions(v, body.stream === true),
  ),
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
  temperature: number('temperature', 0, 2),
  top_p: number('top_p', 0, 1),
  max_completion_tokens: field({ ...tokens, description: 'Wins over max_tokens' }, (v) => numberIn(v, 'max_completion_tokens', 1, MAX_TOKENS, true)),
  // Read only when max_completion_tokens is absent (it wins): parseChatRequest reads it after `??`.
  max_tokens: field(tokens, (v) => numberIn(v, 'max_tokens', 1, MAX_TOKENS, true)),
  stop: field({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 4 }] }, (v) => {
    if (!present(v)) return undefined;
    if (typeof v === 'string') return [v];
    if (Array.isArray(v) && v.length <= 4 && v.every((x) => typeof x === 'string')) return v as string[];
    throw badRequest('stop must be a string or an array of at most 4 strings');
  }),
  n: field({ type: 'integer', const: 1, description: 'One choice per turn: only 1' }, (v) => {
    if (present(v) && v !== 1) throw badRequest('n must be 1: a turn has one answer (send the turn again for another)');
    return undefined;
  }),
  seed: field({ type: 'integer', description: 'Passed to models that take one (an OpenAI-compatible upstream); others ignore it' }, (v) => {
    if (!present(v)) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw badRequest('seed must be an integer');
    return v;
  }),
  presence_penalty: field(
    { type: 'number', minimum: -2, maximum: 2, description: 'Passed to models that take one (an OpenAI-compatible upstream); others ignore it' },
    (v) => numberIn(v, 'presence_penalty', -2, 2),
  ),
  frequency_penalty: field(
    { type: 'number', minimum: -2, maximum: 2, description: 'Passed to models that take one (an OpenAI-compatible upstream); others ignore it' },
    (v) => numberIn(v, 'frequency_penalty', -2, 2),
  ),
  user: ignored({ type: 'string', maxLength: 256, description: 'the app’s consumer is the session’s' }, (v) => {
    if (typeof v !== 'string' || v.length > 256) throw badRequest('user must be a string of at most 256 characters');
  }),
  metadata: ignored(
    {
      type: 'object',
      maxProperties: METADATA_LIMITS.maxEntries,
      propertyNames: { maxLength: METADATA_LIMITS.maxKeyLength },
      additionalProperties: { type: 'string', maxLength: METADATA_LIMITS.maxValueLength },
    },
    (v) => {
      const ok =
        isRecord(v) &&
        Object.keys(v).length <= METADATA_LIMITS.maxEntries &&
        Object.entries(v).every(([k, x]) => k.length <= METADATA_LIMITS.maxKeyLength && typeof x === 'string' && x.length <= METADATA_LIMITS.maxValueLength);
      if (!ok) throw badRequest('metadata must be an object of at most 16 string values (keys of 64, values of 512 characters)');
    },
  ),
  store: ignored({ type: 'boolean', description: 'a session is stored as its app’s settings say (Zero Data Retention)' }, (v) => {
    if (typeof v !== 'boolean') throw badRequest('store must be a boolean');
  }),
  tools: field(TOOLS_SCHEMA, (v) => parseTools(v)),
  tool_choice: field(TOOL_CHOICE_SCHEMA, (v, body) => parseToolChoice(v, parseTools(body.tools))),
  parallel_tool_calls: field({ type: ['boolean', 'null'], description: 'false: at most one tool call a turn' }, (v) => {
    if (present(v) && typeof v !== 'boolean') throw badRequest('parallel_tool_calls must be a boolean');
    return v !== false;
  }),
  response_format: field(RESPONSE_FORMAT_SCHEMA, (v) => parseResponseFormat(v)),
  logprobs: field({ type: 'boolean', const: false, description: 'Log probabilities are not available: only false' }, (v) => {
    if (present(v) && v !== false) throw badRequest('logprobs is not supported: send false or leave it out');
    return undefined;
  }),
};

export type ChatFieldName = keyof typeof FIELDS;

/** One field's schema, for a request that shares it (the Responses API). */
export function chatFieldSchema(name: ChatFieldName): JsonSchema {
  return FIELDS[name].schema;
}

/** One field's rule, for a request that shares it (the Responses API). */
export function readChatField<K extends ChatFieldName>(name: K, value: unknown, body: Record<string, unknown>): ReturnType<(typeof FIELDS)[K]['read']> {
  return FIELDS[name].read(value, body) as ReturnType<(typeof FIELDS)[K]['read']>;
}

/** The JSON Schema of the request body, from the same field table the rules read (for the OpenAPI document). */
export function chatRequestSchema(): JsonSchema {
  return requestSchema('ChatCompletionRequest', FIELDS, ['model', 'messages']);
}

/**
 * `model` a string, `messages` a non-empty array, a `model` naming an app; then the shape of every
 * other field (`variables` and `files` included). `appNameId` is the app the API key belongs to: a
 * key reaches only its own app, so any other `model` names no app (404), and that answer comes before
 * any variable or file rule is looked at.
 */
export function parseChatRequest(body: Record<string, unknown>, appNameId: string): ChatRequest {
  const read = <K extends keyof typeof FIELDS>(name: K): ReturnType<(typeof FIELDS)[K]['read']> =>
    FIELDS[name].read(body[name], body) as ReturnType<(typeof FIELDS)[K]['read']>;
  const model = read('model');
  const messages = read('messages');
  requireAppAndKnownFields(body, FIELDS, model, appNameId);
  const stream = read('stream');
  const chatSessionId = read('chatSessionId');
  const streamUsage = read('stream_options');
  const variables = read('variables');
  const files = read('files');
  const temperature = read('temperature');
  const topP = read('top_p');
  const maxTokens = read('max_completion_tokens') ?? read('max_tokens');
  const stop = read('stop');
  read('n');
  const seed = read('seed');
  const presencePenalty = read('presence_penalty');
  const frequencyPenalty = read('frequency_penalty');
  read('user');
  read('metadata');
  read('store');
  read('logprobs');
  const tools = read('tools');
  // The tools as read once: their schemas are checked once.
  const toolChoice = parseToolChoice(body.tool_choice, tools);
  const parallelToolCalls = read('parallel_tool_calls');
  const responseFormat = read('response_format');
  return {
    model,
    messages,
    stream,
    streamUsage,
    ...(chatSessionId !== undefined ? { chatSessionId } : {}),
    variables,
    files,
    options: {
      ...(temperature !== undefined ? { temperature } : {}),
      ...(topP !== undefined ? { topP } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(stop ? { stop } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(presencePenalty !== undefined ? { presencePenalty } : {}),
      ...(frequencyPenalty !== undefined ? { frequencyPenalty } : {}),
    },
    tools,
    toolChoice,
    parallelToolCalls,
    responseFormat,
  };
}

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

function parseStreamOptions(raw: unknown, stream: boolean): boolean {
  if (raw === undefined || raw === null) return false;
  if (!stream) throw badRequest('stream_options is only allowed with stream: true');
  if (!isRecord(raw) || Object.keys(raw).some((k) => k !== 'include_usage') || (raw.include_usage !== undefined && typeof raw.include_usage !== 'boolean')) {
    throw badRequest('stream_options must be { include_usage: boolean }');
  }
  return raw.include_usage === true;
}

/**
 * The messages of a continued session that are new: everything after the request's last assistant
 * message (clients that resend their history send it before that point; the stored transcript is the
 * source of truth for it). A new session takes every message of the request.
 */
export function newTurnMessages(messages: readonly ChatMessageInput[], continued: boolean): ChatMessageInput[] {
  if (!continued) return [...messages];
  let lastAssistant = -1;
  messages.forEach((m, i) => {
    if (m.role === 'assistant') lastAssistant = i;
  });
  return messages.slice(lastAssistant + 1);
}
