/**
 * The chat-completion request of area B, validated in the spec's order: (1) `model` is a string,
 * (2) `messages` is a non-empty array of { role, content: string }; (3) `model` names the key's app,
 * else 404; (4) `variables` within their limits; (5) `files` references. Every other violation is a 400
 * with a message that names the field; no parameter is silently ignored.
 */
import { badRequest, notFound } from '../../platform/domain/errors';
import type { MessageRole } from '../../conversations/domain/session';
import { utf8Length } from '../../platform/domain/utf8';

export interface ChatMessageInput {
  readonly role: MessageRole;
  readonly content: string;
}

export interface FileReference {
  readonly fileId: string;
  readonly fileName: string;
}

/** Generation options of the OpenAI shape that the platform passes on to the model. */
export interface GenerationOptions {
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxTokens?: number;
  readonly stop?: readonly string[];
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
}

export const VARIABLE_LIMITS = { maxEntries: 20, maxValueLength: 2048, namePattern: /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/ } as const;
export const MAX_FILE_REFERENCES = 100;
/**
 * One message's content: 256 KiB of UTF-8. A message is stored as one DynamoDB item (400 KB at most,
 * with its attributes), so a larger one could never be recorded; it is refused before anything is written.
 */
export const MAX_MESSAGE_BYTES = 256 * 1024;

const ROLES: readonly string[] = ['user', 'assistant', 'system'];
const KNOWN_FIELDS = new Set([
  'model',
  'messages',
  'stream',
  'chatSessionId',
  'variables',
  'files',
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'stream_options',
]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `model` a string, `messages` a non-empty array, a `model` naming an app; then the shape of every
 * other field (`variables` and `files` included). `appNameId` is the app the API key belongs to: a
 * key reaches only its own app, so any other `model` names no app (404), and that answer comes before
 * any variable or file rule is looked at.
 */
export function parseChatRequest(body: Record<string, unknown>, appNameId: string): ChatRequest {
  if (typeof body.model !== 'string') throw badRequest('model must be a string');
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw badRequest('messages must be a non-empty array');
  const parsedMessages = messages.map((m, i): ChatMessageInput => {
    if (!isRecord(m) || typeof m.role !== 'string' || !ROLES.includes(m.role)) {
      throw badRequest(`messages[${i}].role must be one of user, assistant, system`);
    }
    if (typeof m.content !== 'string') {
      throw badRequest(`messages[${i}].content must be a string (remote URLs, base64 and multipart content are not supported)`);
    }
    const extra = Object.keys(m).filter((k) => k !== 'role' && k !== 'content');
    if (extra.length) throw badRequest(`messages[${i}] has unsupported fields: ${extra.join(', ')}`);
    if (utf8Length(m.content) > MAX_MESSAGE_BYTES)
      throw badRequest(`messages[${i}].content is too large: at most ${MAX_MESSAGE_BYTES} bytes (256 KiB) of UTF-8 per message`);
    return { role: m.role as MessageRole, content: m.content };
  });
  if (body.model !== appNameId) throw notFound(`Model not found: ${body.model.slice(0, 200)}`);
  const unknown = Object.keys(body).filter((k) => !KNOWN_FIELDS.has(k));
  if (unknown.length) throw badRequest(`Unsupported parameter${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw badRequest('stream must be a boolean');
  if (body.chatSessionId !== undefined && (typeof body.chatSessionId !== 'string' || body.chatSessionId.length === 0)) {
    throw badRequest('chatSessionId must be a non-empty string');
  }
  return {
    model: body.model,
    messages: parsedMessages,
    stream: body.stream === true,
    streamUsage: parseStreamOptions(body.stream_options, body.stream === true),
    ...(typeof body.chatSessionId === 'string' ? { chatSessionId: body.chatSessionId } : {}),
    variables: parseVariables(body.variables),
    files: parseFileReferences(body.files),
    options: parseOptions(body),
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

function numberIn(body: Record<string, unknown>, name: string, min: number, max: number, integer = false): number | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw badRequest(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return v;
}

function parseOptions(body: Record<string, unknown>): GenerationOptions {
  const temperature = numberIn(body, 'temperature', 0, 2);
  const topP = numberIn(body, 'top_p', 0, 1);
  const maxTokens = numberIn(body, 'max_completion_tokens', 1, 200_000, true) ?? numberIn(body, 'max_tokens', 1, 200_000, true);
  let stop: string[] | undefined;
  if (body.stop !== undefined && body.stop !== null) {
    if (typeof body.stop === 'string') stop = [body.stop];
    else if (Array.isArray(body.stop) && body.stop.length <= 4 && body.stop.every((x) => typeof x === 'string')) stop = body.stop as string[];
    else throw badRequest('stop must be a string or an array of at most 4 strings');
  }
  return {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(stop ? { stop } : {}),
  };
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
