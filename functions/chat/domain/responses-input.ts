/**
 * The `input` of a Responses API request: a text (one user message) or items (messages, function calls
 * and their outputs, references to an earlier response's output items), read into chat messages, and
 * the JSON Schema the document shows for it.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { JsonSchema } from '../../kernel/domain/json-schema';
import { isRecord } from '../../kernel/domain/request-rule';
import type { ToolCall } from '../../conversations/domain/session';
import type { ChatMessageInput } from './chat-request';
import { onlyKeys } from './request-fields';
import { FILE_PART, IMAGE_PART, isFilePart, parseFilePart, type FilePart } from './responses-file-parts';
import { boundedText as bounded } from './turn-fields';

/**
 * An input item: a message (with the files of its `input_image` / `input_file` parts, which go to the
 * model as the turn's `files` do), a tool call or result, or a reference to an earlier response's output item.
 */
export type ResponseInputItem =
  | { readonly kind: 'message'; readonly message: ChatMessageInput; readonly files?: readonly FilePart[] }
  | { readonly kind: 'reference'; readonly id: string }
  /** A reasoning item sent back: accepted and not passed on (the platform's models get no reasoning blocks back). */
  | { readonly kind: 'reasoning' };

export const MAX_ITEMS = 2048;
const MAX_CALL_ID = 256;
const TEXT_ONLY = 'must be a text part: files go in the input_image and input_file parts of a user, system or developer message';
/** A conversation's items are stored as they are: a file part would have no upload to stand for. */
const ITEM_TEXT_ONLY = 'must be text: input_image and input_file parts are taken in the input of POST /responses only';

/**
 * A message's content: a string, or text parts (`input_text`, and `output_text` on an assistant's)
 * joined; with `withFiles`, also `input_image` / `input_file` parts, returned apart.
 */
function messageContent(
  content: unknown,
  where: string,
  partType: 'input_text' | 'output_text',
  withFiles: boolean,
  refusal = TEXT_ONLY,
): { text: string; files: FilePart[] } {
  if (typeof content === 'string') return { text: bounded(content, `${where}.content`), files: [] };
  if (!Array.isArray(content) || content.length === 0) throw badRequest(`${where}.content must be a string or a non-empty array of ${partType} parts`);
  const texts: string[] = [];
  const files: FilePart[] = [];
  for (const [j, p] of content.entries()) {
    const at = `${where}.content[${j}]`;
    if (withFiles && isFilePart(p)) {
      files.push(parseFilePart(p, at));
      continue;
    }
    if (!isRecord(p) || (p.type !== partType && p.type !== 'input_text' && p.type !== 'output_text')) throw badRequest(`${at} ${refusal}`);
    onlyKeys(p, ['type', 'text', 'annotations', 'logprobs'], at);
    if (typeof p.text !== 'string') throw badRequest(`${at}.text must be a string`);
    texts.push(p.text);
  }
  return { text: bounded(texts.join(''), `${where}.content`), files };
}

const contentText = (content: unknown, where: string, partType: 'input_text' | 'output_text') => messageContent(content, where, partType, false).text;

function callId(v: unknown, where: string): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_CALL_ID)
    throw badRequest(`${where}.call_id must be a string of 1 to ${MAX_CALL_ID} characters`);
  return v;
}

function parseItem(item: unknown, i: number, list = 'input'): ResponseInputItem {
  const where = `${list}[${i}]`;
  if (!isRecord(item)) throw badRequest(`${where} must be an object`);
  const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
  switch (type) {
    case 'message': {
      onlyKeys(item, ['type', 'role', 'content', 'id', 'status', 'phase'], where);
      const role = item.role;
      if (role === 'assistant') return { kind: 'message', message: { role: 'assistant', content: contentText(item.content, where, 'output_text') } };
      if (role === 'user' || role === 'system' || role === 'developer') {
        const { text, files } =
          list === 'input' ? messageContent(item.content, where, 'input_text', true) : messageContent(item.content, where, 'input_text', false, ITEM_TEXT_ONLY);
        return { kind: 'message', message: { role: role === 'user' ? 'user' : 'system', content: text }, ...(files.length ? { files } : {}) };
      }
      throw badRequest(`${where}.role must be one of user, assistant, system, developer`);
    }
    case 'function_call': {
      onlyKeys(item, ['type', 'call_id', 'name', 'arguments', 'id', 'status'], where);
      if (typeof item.name !== 'string' || item.name.length === 0) throw badRequest(`${where}.name must be a non-empty string`);
      if (typeof item.arguments !== 'string') throw badRequest(`${where}.arguments must be a string (JSON text)`);
      const call: ToolCall = { id: callId(item.call_id, where), name: item.name, arguments: bounded(item.arguments, `${where}.arguments`) };
      return { kind: 'message', message: { role: 'assistant', content: '', toolCalls: [call] } };
    }
    case 'function_call_output': {
      onlyKeys(item, ['type', 'call_id', 'output', 'id', 'status'], where);
      const output = typeof item.output === 'string' ? bounded(item.output, `${where}.output`) : contentText(item.output, where, 'input_text');
      return { kind: 'message', message: { role: 'tool', content: output, toolCallId: callId(item.call_id, where) } };
    }
    case 'item_reference': {
      onlyKeys(item, ['type', 'id'], where);
      if (typeof item.id !== 'string' || item.id.length === 0 || item.id.length > MAX_CALL_ID) throw badRequest(`${where}.id must be an item id`);
      return { kind: 'reference', id: item.id };
    }
    case 'reasoning': {
      onlyKeys(item, ['type', 'id', 'summary', 'content', 'encrypted_content', 'status'], where);
      if (!Array.isArray(item.summary ?? [])) throw badRequest(`${where}.summary must be an array`);
      if (item.encrypted_content !== undefined && item.encrypted_content !== null && typeof item.encrypted_content !== 'string')
        throw badRequest(`${where}.encrypted_content must be a string`);
      return { kind: 'reasoning' };
    }
    default:
      throw badRequest(`${where}.type must be one of message, function_call, function_call_output, item_reference, reasoning`);
  }
}

/** `input`: a text (one user message) or items. */
export function parseInput(raw: unknown): ResponseInputItem[] {
  if (typeof raw === 'string') return [{ kind: 'message', message: { role: 'user', content: bounded(raw, 'input') } }];
  if (!Array.isArray(raw) || raw.length === 0) throw badRequest('input must be a string or a non-empty array of items');
  if (raw.length > MAX_ITEMS) throw badRequest(`input: at most ${MAX_ITEMS} items`);
  return raw.map((item, i) => parseItem(item, i));
}

/** Items sent in a member of another name (a conversation's `items`): at most `max`, each read as an input item. */
export function parseItemList(raw: unknown, list: string, max: number): ResponseInputItem[] {
  if (!Array.isArray(raw) || raw.length > max) throw badRequest(`${list} must be an array of at most ${max} items`);
  return raw.map((item, i) => parseItem(item, i, list));
}

/** The file parts of every message, in order. */
export function filePartsOf(items: readonly ResponseInputItem[]): FilePart[] {
  return items.flatMap((item) => (item.kind === 'message' ? (item.files ?? []) : []));
}

/**
 * The items as chat messages: an assistant's text followed by its function calls, or consecutive
 * function calls, are one assistant message with those tool calls, as a model makes them.
 */
export function joinToolCalls(messages: readonly ChatMessageInput[]): ChatMessageInput[] {
  const out: ChatMessageInput[] = [];
  for (const m of messages) {
    const prev = out[out.length - 1];
    if (m.role === 'assistant' && m.toolCalls?.length && !m.content && prev?.role === 'assistant') {
      out[out.length - 1] = { role: 'assistant', content: prev.content, toolCalls: [...(prev.toolCalls ?? []), ...m.toolCalls] };
    } else out.push(m);
  }
  return out;
}

/** What an earlier answer's part carried beside its text: accepted as sent back, and ignored. */
const IGNORED_LIST = { type: 'array', items: { description: 'Any value (ignored)' } };
const TEXT_PART = {
  type: 'object',
  properties: { type: { enum: ['input_text', 'output_text'] }, text: { type: 'string' }, annotations: IGNORED_LIST, logprobs: IGNORED_LIST },
  required: ['type', 'text'],
  additionalProperties: false,
};
const CONTENT = { anyOf: [{ type: 'string' }, { type: 'array', minItems: 1, items: TEXT_PART }] };
/** A user, system or developer message's content may carry files too. */
const INPUT_CONTENT = { anyOf: [{ type: 'string' }, { type: 'array', minItems: 1, items: { anyOf: [TEXT_PART, IMAGE_PART, FILE_PART] } }] };
export const INPUT_ITEM: JsonSchema = {
  anyOf: [
    {
      type: 'object',
      title: 'Message',
      properties: {
        type: { const: 'message' },
        role: { enum: ['user', 'assistant', 'system', 'developer'] },
        content: INPUT_CONTENT,
        id: { type: 'string' },
        status: { type: 'string' },
        phase: { type: 'string' },
      },
      required: ['role', 'content'],
      additionalProperties: false,
    },
    {
      type: 'object',
      title: 'FunctionCall',
      properties: {
        type: { const: 'function_call' },
        call_id: { type: 'string', minLength: 1, maxLength: MAX_CALL_ID },
        name: { type: 'string', minLength: 1 },
        arguments: { type: 'string' },
        id: { type: 'string' },
        status: { type: 'string' },
      },
      required: ['type', 'call_id', 'name', 'arguments'],
      additionalProperties: false,
    },
    {
      type: 'object',
      title: 'FunctionCallOutput',
      properties: {
        type: { const: 'function_call_output' },
        call_id: { type: 'string', minLength: 1, maxLength: MAX_CALL_ID },
        output: CONTENT,
        id: { type: 'string' },
        status: { type: 'string' },
      },
      required: ['type', 'call_id', 'output'],
      additionalProperties: false,
    },
    {
      type: 'object',
      title: 'ItemReference',
      properties: { type: { const: 'item_reference' }, id: { type: 'string', minLength: 1 } },
      required: ['type', 'id'],
      additionalProperties: false,
      description: "An output item of an earlier response of this app (its message's text or its function call)",
    },
    {
      type: 'object',
      title: 'Reasoning',
      properties: {
        type: { const: 'reasoning' },
        id: { type: 'string' },
        summary: { type: 'array', items: { type: 'object' } },
        content: { type: ['array', 'null'], items: { type: 'object' } },
        encrypted_content: { type: ['string', 'null'] },
        status: { type: 'string' },
      },
      required: ['type'],
      additionalProperties: false,
      description: 'Accepted and not passed on to the model',
    },
  ],
};
