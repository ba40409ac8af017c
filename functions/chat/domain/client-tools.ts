/**
 * Function tools a client declares on a chat turn (OpenAI's `tools`, `tool_choice`, `parallel_tool_calls`)
 * and structured output (`response_format`): how they are read from a request, the JSON Schema the
 * OpenAPI document shows for each, and the rule that tool results answer the tool calls before them.
 *
 * The platform runs the app's own tools (MCP connections, the document tools) itself; a call to a
 * client's function tool ends the turn with `finish_reason: "tool_calls"` and is the client's to run.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { JsonSchema } from '../../kernel/domain/json-schema';
import type { ToolCall, ToolMarker } from '../../conversations/domain/session';
import { jsonSchemaDefect } from './json-schema-check';
import { isRecord } from '../../kernel/domain/request-rule';
import { onlyKeys } from './request-fields';

export interface ClientTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an empty object schema when the client gave none). */
  readonly parameters: Record<string, unknown>;
  /** What the client asked for as `strict` (echoed by a response; the platform checks arguments either way). */
  readonly strict?: boolean;
}

/** Which tools the model may or must call: OpenAI's `tool_choice`. */
export type ToolChoice =
  | { readonly type: 'auto' }
  | { readonly type: 'none' }
  | { readonly type: 'required' }
  | { readonly type: 'tool'; readonly name: string };

export type ResponseFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | { readonly type: 'json_schema'; readonly name: string; readonly schema: Record<string, unknown>; readonly strict: boolean };

/** OpenAI's bounds: 128 tools a request, names of 64 characters from a small alphabet. */
export const MAX_TOOLS = 128;
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** Names the platform's own document tools take (a client tool may not shadow them). */
export const RESERVED_TOOL_NAMES: readonly string[] = ['readPDF', 'readDocument'];
const MAX_DESCRIPTION = 1024 * 16;
const MAX_CALL_ID = 256;
/** Tool calls one assistant message may carry. */
export const MAX_TOOL_CALLS = 128;

const EMPTY_PARAMETERS = { type: 'object', properties: {} };

export const TOOLS_SCHEMA: JsonSchema = {
  type: ['array', 'null'],
  maxItems: MAX_TOOLS,
  description:
    'Function tools the model may call. A call to one ends the turn with finish_reason "tool_calls"; the client runs it and sends the result as a role "tool" message. The app’s own MCP tools are run by the platform.',
  items: {
    type: 'object',
    properties: {
      type: { const: 'function' },
      function: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: TOOL_NAME_PATTERN.source, description: 'Unique in the request; readPDF and readDocument are reserved' },
          description: { type: 'string', maxLength: MAX_DESCRIPTION },
          parameters: { type: 'object', description: 'JSON Schema of the arguments' },
          strict: { type: ['boolean', 'null'], description: 'Accepted and ignored: the arguments are handed back as the model wrote them' },
        },
        required: ['name'],
        additionalProperties: false,
      },
    },
    required: ['type', 'function'],
    additionalProperties: false,
  },
};

/** A schema the platform could not apply (an unknown type, a pattern that is no regular expression, a reference it cannot follow) is a 400 now, not a failed turn later. */
export function requireUsableSchema(schema: Record<string, unknown>, where: string): void {
  const defect = jsonSchemaDefect(schema);
  if (defect) throw badRequest(`${where}: ${defect}`);
}

/** `tools`: function tools only, unique names, no name of the platform's document tools. */
export function parseTools(raw: unknown): ClientTool[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw badRequest('tools must be an array of function tools');
  if (raw.length > MAX_TOOLS) throw badRequest(`tools: at most ${MAX_TOOLS} tools per request`);
  return uniqueNames(
    raw.map((t, i): ClientTool => {
      if (!isRecord(t) || t.type !== 'function' || !isRecord(t.function))
        throw badRequest(`tools[${i}] must be { type: "function", function: { name, parameters } }`);
      onlyKeys(t, ['type', 'function'], `tools[${i}]`);
      onlyKeys(t.function, ['name', 'description', 'parameters', 'strict'], `tools[${i}].function`);
      return functionToolOf(t.function, `tools[${i}].function`, { nulls: false, maxDescription: MAX_DESCRIPTION });
    }),
  );
}

/**
 * One function tool's own fields, read under `at`: chat nests them under `function`, the Responses API
 * has them on the tool. `nulls`: a null description or parameters counts as absent (Responses).
 */
export function functionToolOf(f: Record<string, unknown>, at: string, opts: { readonly nulls: boolean; readonly maxDescription?: number }): ClientTool {
  const given = (v: unknown) => v !== undefined && !(opts.nulls && v === null);
  if (typeof f.name !== 'string' || !TOOL_NAME_PATTERN.test(f.name)) throw badRequest(`${at}.name must match ${TOOL_NAME_PATTERN.source}`);
  if (RESERVED_TOOL_NAMES.includes(f.name)) throw badRequest(`${at}.name: ${f.name} is the platform's own document tool`);
  const max = opts.maxDescription;
  if (given(f.description) && (typeof f.description !== 'string' || (max !== undefined && f.description.length > max)))
    throw badRequest(`${at}.description must be a string${max !== undefined ? ` of at most ${max} characters` : ''}`);
  if (given(f.parameters) && !isRecord(f.parameters)) throw badRequest(`${at}.parameters must be a JSON Schema object`);
  if (isRecord(f.parameters)) requireUsableSchema(f.parameters, `${at}.parameters`);
  if (f.strict !== undefined && f.strict !== null && typeof f.strict !== 'boolean') throw badRequest(`${at}.strict must be a boolean`);
  return {
    name: f.name,
    description: typeof f.description === 'string' ? f.description : '',
    parameters: isRecord(f.parameters) ? f.parameters : EMPTY_PARAMETERS,
    ...(typeof f.strict === 'boolean' ? { strict: f.strict } : {}),
  };
}

/** Tools whose names are unique: a name declared twice is a 400. */
export function uniqueNames(tools: ClientTool[]): ClientTool[] {
  const names = tools.map((t) => t.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw badRequest(`tools: the name ${twice} is declared twice`);
  return tools;
}

export const TOOL_CHOICE_SCHEMA: JsonSchema = {
  anyOf: [
    { type: 'null' },
    { enum: ['none', 'auto', 'required'] },
    {
      type: 'object',
      properties: {
        type: { const: 'function' },
        function: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
      },
      required: ['type', 'function'],
      additionalProperties: false,
    },
  ],
  description: '"required" and a named tool apply to the turn’s first model call; after the platform ran a tool the model chooses freely',
};

/** `tool_choice`: needs `tools` unless it is "none" or "auto"; a named tool must be one of them. */
export function parseToolChoice(raw: unknown, tools: readonly ClientTool[]): ToolChoice {
  const keyword = keywordToolChoice(raw, tools);
  if (keyword) return keyword;
  if (isRecord(raw) && raw.type === 'function' && isRecord(raw.function) && typeof raw.function.name === 'string') {
    onlyKeys(raw, ['type', 'function'], 'tool_choice');
    onlyKeys(raw.function, ['name'], 'tool_choice.function');
    return namedToolChoice(raw.function.name, tools);
  }
  throw badRequest('tool_choice must be "none", "auto", "required" or { type: "function", function: { name } }');
}

/** `none`, `auto` (also for none given) and `required` (which needs tools); undefined for anything else. */
export function keywordToolChoice(raw: unknown, tools: readonly ClientTool[]): ToolChoice | undefined {
  if (raw === undefined || raw === null || raw === 'auto') return { type: 'auto' };
  if (raw === 'none') return { type: 'none' };
  if (raw !== 'required') return undefined;
  if (!tools.length) throw badRequest('tool_choice "required" needs tools');
  return { type: 'required' };
}

/** A tool choice naming one of the tools. */
export function namedToolChoice(name: string, tools: readonly ClientTool[]): ToolChoice {
  if (!tools.some((t) => t.name === name)) throw badRequest(`tool_choice names ${name.slice(0, 64)}, which is not among tools`);
  return { type: 'tool', name };
}

export const RESPONSE_FORMAT_SCHEMA: JsonSchema = {
  anyOf: [
    { type: 'null' },
    { type: 'object', properties: { type: { enum: ['text', 'json_object'] } }, required: ['type'], additionalProperties: false },
    {
      type: 'object',
      properties: {
        type: { const: 'json_schema' },
        json_schema: {
          type: 'object',
          properties: {
            name: { type: 'string', pattern: TOOL_NAME_PATTERN.source },
            description: { type: 'string' },
            schema: { type: 'object' },
            strict: { type: ['boolean', 'null'] },
          },
          required: ['name'],
          additionalProperties: false,
        },
      },
      required: ['type', 'json_schema'],
      additionalProperties: false,
    },
  ],
  description:
    'The answer is checked by the platform: JSON (json_object: an object) valid against the schema. An invalid answer gets one repair attempt, then the turn fails with a 500. A streamed answer comes as one delta once checked.',
};

/** `response_format`: text, a JSON object, or a JSON value valid against a schema. */
export function parseResponseFormat(raw: unknown): ResponseFormat {
  if (raw === undefined || raw === null) return { type: 'text' };
  if (!isRecord(raw) || typeof raw.type !== 'string') throw badRequest('response_format must be { type: "text" | "json_object" | "json_schema" }');
  if (raw.type === 'text' || raw.type === 'json_object') {
    onlyKeys(raw, ['type'], 'response_format');
    return { type: raw.type };
  }
  if (raw.type !== 'json_schema') throw badRequest('response_format.type must be text, json_object or json_schema');
  onlyKeys(raw, ['type', 'json_schema'], 'response_format');
  const js = raw.json_schema;
  if (!isRecord(js)) throw badRequest('response_format.json_schema must be { name, schema, strict? }');
  onlyKeys(js, ['name', 'description', 'schema', 'strict'], 'response_format.json_schema');
  return jsonSchemaFormatOf(js, 'response_format.json_schema', { nulls: false, schemaRequired: false });
}

/**
 * A JSON Schema format's own fields, read under `where`: chat nests them under `json_schema`, the
 * Responses API has them on `text.format`, where the schema is required and null counts as absent.
 */
export function jsonSchemaFormatOf(
  f: Record<string, unknown>,
  where: string,
  opts: { readonly nulls: boolean; readonly schemaRequired: boolean },
): ResponseFormat {
  const given = (v: unknown) => v !== undefined && !(opts.nulls && v === null);
  if (typeof f.name !== 'string' || !TOOL_NAME_PATTERN.test(f.name)) throw badRequest(`${where}.name must match ${TOOL_NAME_PATTERN.source}`);
  if ((opts.schemaRequired || f.schema !== undefined) && !isRecord(f.schema)) throw badRequest(`${where}.schema must be a JSON Schema object`);
  if (isRecord(f.schema)) requireUsableSchema(f.schema, `${where}.schema`);
  if (f.strict !== undefined && f.strict !== null && typeof f.strict !== 'boolean') throw badRequest(`${where}.strict must be a boolean`);
  if (given(f.description) && typeof f.description !== 'string') throw badRequest(`${where}.description must be a string`);
  return { type: 'json_schema', name: f.name, schema: isRecord(f.schema) ? f.schema : {}, strict: f.strict === true };
}

export const TOOL_CALLS_SCHEMA: JsonSchema = {
  type: 'array',
  maxItems: MAX_TOOL_CALLS,
  items: {
    type: 'object',
    properties: {
      id: { type: 'string', minLength: 1, maxLength: MAX_CALL_ID },
      index: { type: 'integer', minimum: 0, description: 'A streamed delta’s index, as clients copy it back: ignored' },
      type: { const: 'function' },
      function: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, arguments: { type: 'string' } },
        required: ['name', 'arguments'],
        additionalProperties: false,
      },
    },
    required: ['id', 'type', 'function'],
    additionalProperties: false,
  },
};

/** An assistant message's `tool_calls`, as the client got them (and sends them back in its history). */
export function parseToolCalls(raw: unknown, where: string): ToolCall[] {
  if (!Array.isArray(raw) || raw.length > MAX_TOOL_CALLS) throw badRequest(`${where}.tool_calls must be an array of at most ${MAX_TOOL_CALLS} tool calls`);
  return raw.map((c, j) => {
    const at = `${where}.tool_calls[${j}]`;
    if (!isRecord(c) || c.type !== 'function' || !isRecord(c.function))
      throw badRequest(`${at} must be { id, type: "function", function: { name, arguments } }`);
    onlyKeys(c, ['id', 'type', 'function', 'index'], at);
    if (c.index !== undefined && !(Number.isSafeInteger(c.index) && (c.index as number) >= 0)) throw badRequest(`${at}.index must be a non-negative integer`);
    onlyKeys(c.function, ['name', 'arguments'], `${at}.function`);
    if (typeof c.id !== 'string' || c.id.length === 0 || c.id.length > MAX_CALL_ID)
      throw badRequest(`${at}.id must be a string of 1 to ${MAX_CALL_ID} characters`);
    if (typeof c.function.name !== 'string' || c.function.name.length === 0) throw badRequest(`${at}.function.name must be a non-empty string`);
    if (typeof c.function.arguments !== 'string') throw badRequest(`${at}.function.arguments must be a string (JSON text)`);
    return { id: c.id, name: c.function.name, arguments: c.function.arguments };
  });
}

/** The shape of a tool-call id a `role: "tool"` message answers. */
export function parseToolCallId(raw: unknown, where: string): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_CALL_ID)
    throw badRequest(`${where}.tool_call_id must be a string of 1 to ${MAX_CALL_ID} characters`);
  return raw;
}

/** The arguments a model produced, as an object: a JSON object text, else empty. */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) ? v : {};
  } catch {
    return {};
  }
}

/** The message steps the tool-result rule reads. */
export type ToolStep =
  | { readonly kind: 'calls'; readonly ids: readonly string[] }
  | { readonly kind: 'result'; readonly id: string }
  | { readonly kind: 'other' };

/**
 * Every tool result answers a call of the assistant message before it (with only tool results in
 * between), at most once. A call left without a result is not an error: the model is told the client
 * gave none (contextOf), so a session whose client never ran a tool can still go on. Returns the first
 * result that answers nothing.
 */
export function toolResultProblem(steps: readonly ToolStep[]): { readonly at: number; readonly id: string } | undefined {
  let open = new Set<string>();
  for (const [at, step] of steps.entries()) {
    if (step.kind === 'calls') open = new Set(step.ids);
    else if (step.kind === 'result') {
      if (!open.delete(step.id)) return { at, id: step.id };
    } else open = new Set();
  }
  return undefined;
}

/**
 * The export's markers for a message that hands tool calls to the client (`function`) or carries a
 * result (`function_result`); the arguments and the result stay out of them, as of every marker.
 */
export function functionToolMarkers(
  m: { readonly role: string; readonly toolCalls?: readonly ToolCall[]; readonly toolCallId?: string },
  nameOf: (callId: string) => string | undefined,
): ToolMarker[] | undefined {
  if (m.toolCalls?.length) return m.toolCalls.map((c) => ({ id: c.id, name: c.name, type: 'function' }));
  if (m.role !== 'tool' || m.toolCallId === undefined) return undefined;
  const name = nameOf(m.toolCallId);
  return [{ id: m.toolCallId, ...(name !== undefined ? { name } : {}), type: 'function_result' }];
}
