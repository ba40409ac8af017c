/**
 * The chat-completion request of area B, validated in the spec's order: (1) `model` is a string,
 * (2) `messages` is a non-empty array of { role, content: string }; (3) `model` names the key's app,
 * else 404; (4) `variables` within their limits; (5) `files` references. Every other violation is a 400
 * with a message that names the field; no parameter is silently ignored. Each field is declared once
 * (FIELDS): the rule that reads it and the JSON Schema the OpenAPI document shows for it.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { RequestMcpServer } from './responses-tools';
import { OPTIONAL_FIELDS, REASONING_EFFORTS } from './responses-options';
import type { ToolCall } from '../../conversations/domain/session';
import type { JsonSchema } from '../../kernel/domain/json-schema';
import { isRecord } from '../../kernel/domain/request-rule';
import { field, fieldReader, ignored, present, requestSchema, requireAppAndKnownFields } from './request-fields';
import {
  boundedText,
  generationOptions,
  MAX_MESSAGE_BYTES,
  numberIn,
  TOKEN_LIMIT_SCHEMA,
  tokenLimit,
  TURN_FIELDS,
  type FileReference,
  type GenerationOptions,
} from './turn-fields';
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
  /** Remote MCP servers the request names (Responses `mcp` tools), listed and called like the app's connections. */
  readonly mcpServers?: readonly RequestMcpServer[];
  /** At most this many calls of the tools the platform runs in this turn (Responses `max_tool_calls`). */
  readonly maxToolCalls?: number;
}

const ROLES: readonly string[] = ['user', 'assistant', 'system', 'developer', 'tool'];
/** The text a content part array may hold: `{type: "text", text}` parts; other parts are rule 8's refusal. */
const CONTENT_REFUSED = 'must be a string or an array of text parts (remote URLs, base64 and multipart content are not supported)';

/**
 * What a text part may carry besides its text, accepted and ignored: the OpenAI Agents SDK sends an answer
 * back as a part holding the fields of the message it came in (`role`) or of its stream (`annotations`).
 */
const PART_ECHOES: Readonly<Record<string, (v: unknown) => boolean>> = {
  role: (v) => v === 'assistant',
  annotations: Array.isArray,
};

function partProblems(p: Record<string, unknown>): string[] {
  return Object.keys(p).filter((k) => k !== 'type' && k !== 'text' && !PART_ECHOES[k]?.(p[k]));
}

/** A message's text: a string, or an array of text parts joined (what the AI SDK sends for a multi-part message). */
function contentText(content: unknown, i: number): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.length > 0 && content.every((p) => isRecord(p) && p.type === 'text' && typeof p.text === 'string')) {
    const extra = content.flatMap((p) => partProblems(p as Record<string, unknown>));
    if (extra.length) throw badRequest(`messages[${i}].content parts have unsupported fields: ${[...new Set(extra)].join(', ')}`);
    return content.map((p) => (p as { text: string }).text).join('');
  }
  throw badRequest(`messages[${i}].content ${CONTENT_REFUSED}`);
}

function oneOfEfforts(v: unknown): string {
  if (!(REASONING_EFFORTS as readonly unknown[]).includes(v)) throw badRequest(`reasoning_effort must be one of ${REASONING_EFFORTS.join(', ')}`);
  return v as string;
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
  boundedText(content, `messages[${i}].content`);
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
  model: TURN_FIELDS.model,
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
                  properties: {
                    type: { const: 'text' },
                    text: { type: 'string' },
                    role: { const: 'assistant', description: 'Accepted and ignored (the OpenAI Agents SDK echoes an answer’s message fields)' },
                    annotations: { type: 'array', items: {}, description: 'Accepted and ignored (the OpenAI Agents SDK echoes an answer’s stream fields)' },
                  },
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
  stream: TURN_FIELDS.stream,
  chatSessionId: TURN_FIELDS.chatSessionId,
  stream_options: field(
    { type: ['object', 'null'], properties: { include_usage: { type: 'boolean' } }, additionalProperties: false, description: 'Only with stream: true' },
    (v, body) => parseStreamOptions(v, body.stream === true),
  ),
  variables: TURN_FIELDS.variables,
  files: TURN_FIELDS.files,
  temperature: TURN_FIELDS.temperature,
  top_p: TURN_FIELDS.top_p,
  max_completion_tokens: field({ ...TOKEN_LIMIT_SCHEMA, description: 'Wins over max_tokens' }, (v) => tokenLimit(v, 'max_completion_tokens')),
  // Read only when max_completion_tokens is absent (it wins): parseChatRequest reads it after `??`.
  max_tokens: field(TOKEN_LIMIT_SCHEMA, (v) => tokenLimit(v, 'max_tokens')),
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
  user: TURN_FIELDS.user,
  metadata: TURN_FIELDS.metadata,
  store: ignored({ type: 'boolean', description: 'a session is stored as its app’s settings say (Zero Data Retention)' }, (v) => {
    if (typeof v !== 'boolean') throw badRequest('store must be a boolean');
  }),
  // What the OpenAI Agents SDK sends from its model settings (promptCacheRetention, promptCacheOptions, text.verbosity).
  prompt_cache_retention: OPTIONAL_FIELDS.prompt_cache_retention,
  prompt_cache_options: OPTIONAL_FIELDS.prompt_cache_options,
  verbosity: ignored({ enum: ['low', 'medium', 'high', null], description: 'the models are not asked for a length' }, (v) => {
    if (v !== 'low' && v !== 'medium' && v !== 'high') throw badRequest('verbosity must be low, medium or high');
  }),
  tools: field(TOOLS_SCHEMA, (v) => parseTools(v)),
  tool_choice: field(TOOL_CHOICE_SCHEMA, (v, body) => parseToolChoice(v, parseTools(body.tools))),
  parallel_tool_calls: TURN_FIELDS.parallel_tool_calls,
  response_format: field(RESPONSE_FORMAT_SCHEMA, (v) => parseResponseFormat(v)),
  reasoning_effort: field(
    { enum: [...REASONING_EFFORTS, null], description: 'Passed to models that reason (an OpenAI-compatible upstream; Bedrock models with a reasoning budget)' },
    (v) => (present(v) ? oneOfEfforts(v) : undefined),
  ),
  logprobs: field({ type: 'boolean', const: false, description: 'Log probabilities are not available: only false' }, (v) => {
    if (present(v) && v !== false) throw badRequest('logprobs is not supported: send false or leave it out');
    return undefined;
  }),
};

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
  const read = fieldReader(FIELDS, body);
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
  const reasoningEffort = read('reasoning_effort');
  read('user');
  read('metadata');
  read('store');
  read('prompt_cache_retention');
  read('prompt_cache_options');
  read('verbosity');
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
    options: generationOptions({ temperature, topP, maxTokens, stop, seed, presencePenalty, frequencyPenalty, reasoningEffort }),
    tools,
    toolChoice,
    parallelToolCalls,
    responseFormat,
  };
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
