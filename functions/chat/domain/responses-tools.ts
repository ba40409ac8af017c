/**
 * The `tools` and `tool_choice` of a Responses API request, with the JSON Schemas the document shows.
 * - `function` tools are the client's: a call to one ends the response with a `function_call` item.
 * - A `namespace` is a named group of function tools: each is offered under its own name.
 * - An `mcp` tool names a remote MCP server the platform lists and calls within the turn, as it does
 *   the app's own connections (its address is checked like a webhook callback's before the turn).
 *   One with only a `connector_id` (OpenAI's hosted connectors) is accepted and not offered.
 * - The hosted tools the platform does not run (web search, file search, code interpreter, image
 *   generation, computer use, shells, custom tools, apply_patch) are accepted and not offered to the model.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { JsonSchema } from '../../kernel/domain/json-schema';
import { isRecord } from '../../kernel/domain/request-rule';
import { parseCallbackUrl } from '../../kernel/domain/webhook-callback';
import {
  functionToolOf,
  keywordToolChoice,
  MAX_TOOLS,
  namedToolChoice,
  TOOL_NAME_PATTERN,
  uniqueNames,
  type ClientTool,
  type ToolChoice,
} from './client-tools';
import { onlyKeys } from './request-fields';

/** A remote MCP server a request names (`type: "mcp"`). */
export interface RequestMcpServer {
  readonly label: string;
  readonly url: string;
  /** Sent as they are on every request to the server (an `authorization` is its Bearer header). */
  readonly headers: Readonly<Record<string, string>>;
  /** Only these of its tools are offered; undefined for all. */
  readonly allowedTools?: readonly string[];
  /** Once checked: the addresses its host resolved to, the only ones its connections may use. */
  readonly addresses?: readonly string[];
}

export interface ResponsesTools {
  /** The client's function tools, namespaces' members included. */
  readonly functions: readonly ClientTool[];
  readonly mcpServers: readonly RequestMcpServer[];
}

/** Tool types a request may carry that the platform accepts and does not offer to the model. */
const HOSTED_TOOL =
  /^(web_search(_preview)?(_\d{4}_\d{2}_\d{2})?|file_search|code_interpreter|image_generation|computer_use(_preview)?|local_shell|shell|custom|apply_patch)$/;
export const MAX_MCP_SERVERS = 10;
const MCP_LABEL = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_HEADERS = 32;
const MAX_HEADER_VALUE = 4096;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;

function functionTool(t: Record<string, unknown>, at: string): ClientTool {
  onlyKeys(t, ['type', 'name', 'description', 'parameters', 'strict', 'defer_loading', 'allowed_callers', 'async', 'output_schema'], at);
  return functionToolOf(t, at, { nulls: true });
}

function namespaceTools(t: Record<string, unknown>, at: string): ClientTool[] {
  onlyKeys(t, ['type', 'name', 'description', 'tools'], at);
  if (typeof t.name !== 'string' || !TOOL_NAME_PATTERN.test(t.name)) throw badRequest(`${at}.name must match ${TOOL_NAME_PATTERN.source}`);
  if (!Array.isArray(t.tools) || t.tools.length === 0) throw badRequest(`${at}.tools must be a non-empty array of function tools`);
  return t.tools.flatMap((f, j) => {
    const where = `${at}.tools[${j}]`;
    if (!isRecord(f) || (f.type !== 'function' && f.type !== 'custom')) throw badRequest(`${where} must be a function (or custom) tool`);
    return f.type === 'function' ? [functionTool(f, where)] : [];
  });
}

function stringRecord(v: unknown, where: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  const ok =
    isRecord(v) &&
    Object.keys(v).length <= MAX_HEADERS &&
    Object.entries(v).every(([k, x]) => HEADER_NAME.test(k) && typeof x === 'string' && x.length <= MAX_HEADER_VALUE && !/[\r\n\0]/.test(x));
  if (!ok) throw badRequest(`${where} must be an object of at most ${MAX_HEADERS} header names with string values of at most ${MAX_HEADER_VALUE} characters`);
  return v as Record<string, string>;
}

function allowedToolNames(v: unknown, where: string): readonly string[] | undefined {
  if (v === undefined || v === null) return undefined;
  const names = Array.isArray(v) ? v : isRecord(v) ? (v.tool_names ?? []) : undefined;
  if (isRecord(v)) onlyKeys(v, ['tool_names', 'read_only'], where);
  if (isRecord(v) && v.read_only !== undefined && v.read_only !== null && typeof v.read_only !== 'boolean')
    throw badRequest(`${where}.read_only must be a boolean`);
  if (!Array.isArray(names) || names.length > MAX_TOOLS || !names.every((n) => typeof n === 'string' && n.length > 0 && n.length <= 128))
    throw badRequest(`${where} must be an array of tool names or { tool_names: [names] }`);
  return names as string[];
}

/** An `mcp` tool: a server the turn lists and calls, or undefined for a hosted connector the platform cannot reach. */
function mcpServer(t: Record<string, unknown>, at: string): RequestMcpServer | undefined {
  onlyKeys(
    t,
    [
      'type',
      'server_label',
      'server_url',
      'connector_id',
      'server_description',
      'headers',
      'authorization',
      'allowed_tools',
      'require_approval',
      'defer_loading',
      'allowed_callers',
      'tunnel_id',
    ],
    at,
  );
  if (typeof t.server_label !== 'string' || !MCP_LABEL.test(t.server_label)) throw badRequest(`${at}.server_label must match ${MCP_LABEL.source}`);
  for (const k of ['server_description', 'authorization', 'connector_id'] as const) {
    if (t[k] !== undefined && t[k] !== null && (typeof t[k] !== 'string' || (t[k] as string).length > MAX_HEADER_VALUE || /[\r\n\0]/.test(t[k] as string)))
      throw badRequest(`${at}.${k} must be a string of at most ${MAX_HEADER_VALUE} characters`);
  }
  const approval = t.require_approval;
  if (approval !== undefined && approval !== null && approval !== 'always' && approval !== 'never' && !isRecord(approval))
    throw badRequest(`${at}.require_approval must be "always", "never" or an object`);
  const headers = stringRecord(t.headers, `${at}.headers`);
  const allowedTools = allowedToolNames(t.allowed_tools, `${at}.allowed_tools`);
  if (t.server_url === undefined || t.server_url === null) {
    if (typeof t.connector_id !== 'string' && typeof t.tunnel_id !== 'string') throw badRequest(`${at} needs a server_url (or a connector_id)`);
    return undefined;
  }
  if (typeof t.server_url !== 'string') throw badRequest(`${at}.server_url must be an https URL`);
  const parsed = parseCallbackUrl(t.server_url);
  if (!parsed.ok) throw badRequest(`${at}.server_url must be an https URL without credentials or fragment (${parsed.problem.replace('_', ' ')})`);
  const authorization: Record<string, string> = typeof t.authorization === 'string' ? { Authorization: `Bearer ${t.authorization}` } : {};
  return { label: t.server_label, url: parsed.target.href, headers: { ...headers, ...authorization }, ...(allowedTools ? { allowedTools } : {}) };
}

/** `tools`: every type a current client sends, each read by its rule. */
export function parseResponsesTools(raw: unknown): ResponsesTools {
  if (raw === undefined || raw === null) return { functions: [], mcpServers: [] };
  if (!Array.isArray(raw) || raw.length > MAX_TOOLS) throw badRequest(`tools must be an array of at most ${MAX_TOOLS} tools`);
  const functions: ClientTool[] = [];
  const mcpServers: RequestMcpServer[] = [];
  for (const [i, t] of raw.entries()) {
    const at = `tools[${i}]`;
    if (!isRecord(t) || typeof t.type !== 'string') throw badRequest(`${at} must be a tool object with a type`);
    if (t.type === 'function') functions.push(functionTool(t, at));
    else if (t.type === 'namespace') functions.push(...namespaceTools(t, at));
    else if (t.type === 'mcp') {
      const server = mcpServer(t, at);
      if (server && mcpServers.some((s) => s.label === server.label)) throw badRequest(`${at}.server_label ${server.label} is given twice`);
      if (server) mcpServers.push(server);
    } else if (!HOSTED_TOOL.test(t.type)) {
      throw badRequest(
        `${at}.type must be function, namespace, mcp, or a hosted tool (web_search, file_search, code_interpreter, image_generation, computer_use_preview, local_shell, shell, custom, apply_patch)`,
      );
    }
  }
  if (functions.length > MAX_TOOLS) throw badRequest(`tools: at most ${MAX_TOOLS} functions, namespaces' members included`);
  if (mcpServers.length > MAX_MCP_SERVERS) throw badRequest(`tools: at most ${MAX_MCP_SERVERS} mcp servers`);
  return { functions: uniqueNames(functions), mcpServers };
}

/** What `tool_choice` leaves the turn: the choice, and the tools it keeps (`allowed_tools` narrows them). */
export interface ResponsesToolChoice {
  readonly choice: ToolChoice;
  readonly tools: ResponsesTools;
  /** As the response echoes it (the Open Responses shapes: a keyword, a function, or allowed tools). */
  readonly echo: unknown;
}

const MODES = ['none', 'auto', 'required'];

/**
 * `tool_choice`: a keyword, a function by name, `allowed_tools` (a subset, `auto` or `required`
 * among it), an MCP server's tool (`{type:"mcp", server_label, name}`, or `required` among the
 * server's tools), or a hosted tool type, which is not offered and leaves the choice to the model.
 */
export function parseResponsesToolChoice(raw: unknown, tools: ResponsesTools): ResponsesToolChoice {
  // `required` among an mcp server's tools needs no function tool.
  if (raw === 'required' && tools.functions.length === 0 && tools.mcpServers.length > 0) return { choice: { type: 'required' }, tools, echo: 'required' };
  const keyword = keywordToolChoice(raw, tools.functions);
  if (keyword) return { choice: keyword, tools, echo: typeof raw === 'string' ? raw : 'auto' };
  if (!isRecord(raw) || typeof raw.type !== 'string') throw badRequest('tool_choice must be "none", "auto", "required" or an object with a type');
  if (raw.type === 'function') {
    onlyKeys(raw, ['type', 'name'], 'tool_choice');
    if (typeof raw.name !== 'string') throw badRequest('tool_choice.name must be a string');
    return { choice: namedToolChoice(raw.name, tools.functions), tools, echo: { type: 'function', name: raw.name } };
  }
  if (raw.type === 'mcp') {
    onlyKeys(raw, ['type', 'server_label', 'name'], 'tool_choice');
    if (typeof raw.server_label !== 'string' || !tools.mcpServers.some((s) => s.label === raw.server_label))
      throw badRequest('tool_choice.server_label must name an mcp tool of the request');
    if (raw.name !== undefined && raw.name !== null && (typeof raw.name !== 'string' || !TOOL_NAME_PATTERN.test(raw.name)))
      throw badRequest(`tool_choice.name must match ${TOOL_NAME_PATTERN.source}`);
    const choice: ToolChoice = typeof raw.name === 'string' ? { type: 'tool', name: raw.name } : { type: 'required' };
    return { choice, tools, echo: typeof raw.name === 'string' ? { type: 'function', name: raw.name } : 'required' };
  }
  if (raw.type === 'allowed_tools') return allowedTools(raw, tools);
  if (raw.type === 'custom' || HOSTED_TOOL.test(raw.type)) return { choice: { type: 'auto' }, tools, echo: 'auto' };
  throw badRequest('tool_choice.type must be function, allowed_tools, mcp, or a hosted tool type');
}

function allowedTools(raw: Record<string, unknown>, tools: ResponsesTools): ResponsesToolChoice {
  onlyKeys(raw, ['type', 'mode', 'tools'], 'tool_choice');
  const mode = raw.mode ?? 'auto';
  if (mode !== 'auto' && mode !== 'required') throw badRequest('tool_choice.mode must be auto or required');
  if (!Array.isArray(raw.tools) || raw.tools.length === 0 || raw.tools.length > MAX_TOOLS)
    throw badRequest(`tool_choice.tools must be an array of 1 to ${MAX_TOOLS} tools`);
  const names = new Set<string>();
  const labels = new Set<string>();
  for (const [i, t] of raw.tools.entries()) {
    const at = `tool_choice.tools[${i}]`;
    if (!isRecord(t) || typeof t.type !== 'string') throw badRequest(`${at} must be { type, name } or { type: "mcp", server_label }`);
    if (t.type === 'function') {
      if (typeof t.name !== 'string') throw badRequest(`${at}.name must be a string`);
      names.add(t.name);
    } else if (t.type === 'mcp') {
      if (typeof t.server_label !== 'string') throw badRequest(`${at}.server_label must be a string`);
      labels.add(t.server_label);
    }
  }
  const kept: ResponsesTools = {
    functions: tools.functions.filter((f) => names.has(f.name)),
    mcpServers: tools.mcpServers.filter((s) => labels.has(s.label)),
  };
  const offered = [...kept.functions.map((f) => ({ type: 'function', name: f.name }))];
  const echo = offered.length ? { type: 'allowed_tools', mode, tools: offered } : mode;
  const hasAny = kept.functions.length + kept.mcpServers.length > 0;
  return { choice: { type: mode === 'required' && hasAny ? 'required' : hasAny ? 'auto' : 'none' }, tools: kept, echo };
}

/** The schemas the OpenAPI document shows (the rules above are what holds). */
const FUNCTION_TOOL: JsonSchema = {
  type: 'object',
  title: 'FunctionTool',
  properties: {
    type: { const: 'function' },
    name: { type: 'string', pattern: TOOL_NAME_PATTERN.source },
    description: { type: ['string', 'null'] },
    parameters: { type: ['object', 'null'] },
    strict: { type: ['boolean', 'null'] },
    defer_loading: { type: ['boolean', 'null'], description: 'Accepted; every tool is offered at once' },
    allowed_callers: { type: ['array', 'null'], items: { type: 'string' }, description: 'Accepted and ignored' },
    async: { type: 'boolean', description: 'Accepted and ignored' },
    output_schema: { description: 'Accepted and ignored' },
  },
  required: ['type', 'name'],
  additionalProperties: false,
};
export const RESPONSES_TOOLS_SCHEMA: JsonSchema = {
  type: 'array',
  maxItems: MAX_TOOLS,
  items: {
    anyOf: [
      FUNCTION_TOOL,
      {
        type: 'object',
        title: 'NamespaceTool',
        properties: {
          type: { const: 'namespace' },
          name: { type: 'string', pattern: TOOL_NAME_PATTERN.source },
          description: { type: ['string', 'null'] },
          tools: {
            type: 'array',
            minItems: 1,
            items: { anyOf: [FUNCTION_TOOL, { type: 'object', properties: { type: { const: 'custom' } }, required: ['type'] }] },
          },
        },
        required: ['type', 'name', 'tools'],
        additionalProperties: false,
        description: 'A named group of function tools, each offered under its own name',
      },
      {
        type: 'object',
        title: 'McpTool',
        properties: {
          type: { const: 'mcp' },
          server_label: { type: 'string', pattern: MCP_LABEL.source },
          server_url: { type: 'string', description: 'https; its addresses must be public, as a webhook callback’s' },
          connector_id: { type: 'string', description: 'Accepted; a hosted connector is not offered' },
          server_description: { type: ['string', 'null'] },
          headers: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
          authorization: { type: ['string', 'null'], description: 'Sent as a Bearer token' },
          allowed_tools: {
            anyOf: [
              { type: 'array', items: { type: 'string' } },
              { type: 'object', properties: { tool_names: { type: 'array', items: { type: 'string' } }, read_only: { type: 'boolean' } } },
              { type: 'null' },
            ],
          },
          require_approval: { description: 'Accepted; the platform runs the tools without approval requests' },
          defer_loading: { type: ['boolean', 'null'] },
          allowed_callers: { type: ['array', 'null'], items: { type: 'string' } },
          tunnel_id: { type: 'string', description: 'Accepted; a tunnelled server is not offered' },
        },
        required: ['type', 'server_label'],
        additionalProperties: false,
        description: 'A remote MCP server the platform lists and calls within the turn',
      },
      {
        type: 'object',
        title: 'HostedTool',
        properties: { type: { type: 'string', pattern: HOSTED_TOOL.source } },
        required: ['type'],
        description: 'Accepted and not offered to the model: the platform does not run hosted tools',
      },
    ],
  },
  description: 'Function, namespace and mcp tools are offered to the model; hosted tools are accepted and not offered',
};

export const RESPONSES_TOOL_CHOICE_SCHEMA: JsonSchema = {
  anyOf: [
    { enum: MODES },
    { type: 'object', properties: { type: { const: 'function' }, name: { type: 'string' } }, required: ['type', 'name'], additionalProperties: false },
    {
      type: 'object',
      properties: {
        type: { const: 'allowed_tools' },
        mode: { enum: ['auto', 'required'] },
        tools: { type: 'array', minItems: 1, maxItems: MAX_TOOLS, items: { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] } },
      },
      required: ['type', 'tools'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { const: 'mcp' }, server_label: { type: 'string' }, name: { type: ['string', 'null'] } },
      required: ['type', 'server_label'],
      additionalProperties: false,
    },
    { type: 'object', properties: { type: { type: 'string', pattern: HOSTED_TOOL.source } }, required: ['type'], additionalProperties: false },
  ],
};
