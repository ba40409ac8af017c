/**
 * The built-in offline model: no network, deterministic, and able to drive every tool loop, so every
 * code path of area B runs on a laptop and in tests. Its rules, in order:
 *
 * 1. Attachments (the `[Attached files]` note of the last user message): it reads every attached
 *    document with the tool offered for it (readPDF / readDocument), then answers naming each attached
 *    file by its name, with the first 200 characters each document's tool returned.
 * 2. A forced tool choice (`required`: the first offered tool; a named tool: that one) is a call, also
 *    after tool results, as OpenAI's models do.
 * 3. After tool results it answers with what the tools returned: `Tool result: <results>`.
 * 4. A last user message that says `use <tool>` or `call <tool>` for an offered tool is a call.
 * 5. Otherwise it answers `Offline reply #<n>: <last user message>`, n being the number of user messages
 *    it was given, so a continued session visibly carries its history.
 *
 * A call's arguments are the first JSON object of the last user message when that is valid against the
 * tool's schema, else a value built from the schema (offline-json-example.ts). With `parallel_tool_calls`
 * it makes one call. A structured answer (`response_format`) is `{"reply": <the answer>}` for a JSON
 * object, and a value built from the schema for a JSON Schema. Token counts are ceil(characters / 4).
 */
import type { ModelMessage, ModelRequest, ModelResponse, ModelStreamEvent, ModelToolCall, ModelToolSpec } from '../domain/model';
import { jsonSchemaProblems } from '../domain/json-schema-check';
import type { ChatModel } from '../app/chat-ports';
import { exampleOf } from './offline-json-example';

const tokens = (text: string) => Math.ceil(text.length / 4);

function firstJsonObject(text: string): Record<string, unknown> {
  const start = text.indexOf('{');
  for (let end = text.lastIndexOf('}'); start >= 0 && end > start; end = text.lastIndexOf('}', end - 1)) {
    try {
      const v: unknown = JSON.parse(text.slice(start, end + 1));
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // try a shorter span
    }
  }
  return {};
}

function contentOf(m: ModelMessage): string {
  return m.content;
}

/** Characters of a document the offline model quotes. */
export const OFFLINE_QUOTE_CHARS = 200;

interface NotedFile {
  readonly name: string;
  readonly kind: 'image' | 'document';
  readonly fileId?: string;
  readonly tool?: string;
}

/** The files listed in a message's `[Attached files]` note (app/chat-attachments.ts writes it). */
function notedFiles(text: string): NotedFile[] {
  const at = text.lastIndexOf('\n[Attached files]\n');
  if (at < 0) return [];
  return text
    .slice(at + '\n[Attached files]\n'.length)
    .split('\n')
    .flatMap((line): NotedFile[] => {
      const doc = /^- (.+): (?:PDF|Word) document, fileId (\S+), read it with the (\w+) tool$/.exec(line);
      if (doc) return [{ name: doc[1]!, kind: 'document', fileId: doc[2]!, tool: doc[3]! }];
      const image = /^- (.+): image \(/.exec(line);
      return image ? [{ name: image[1]!, kind: 'image' }] : [];
    });
}

/** The answer in the requested format: a JSON object around the text, or a value built from the schema. */
function structured(request: ModelRequest, text: string): string {
  const format = request.responseFormat;
  if (format?.type === 'json_object') return JSON.stringify({ reply: text });
  if (format?.type === 'json_schema') return JSON.stringify(exampleOf(format.schema));
  return text;
}

export class OfflineChatModel implements ChatModel {
  async converse(request: ModelRequest): Promise<ModelResponse> {
    const input = tokens(request.system.join('\n') + request.messages.map(contentOf).join('\n') + JSON.stringify(request.tools));
    const last = request.messages[request.messages.length - 1];
    const lastUserIndex = request.messages.map((m) => m.role).lastIndexOf('user');
    const attached = lastUserIndex >= 0 ? notedFiles(contentOf(request.messages[lastUserIndex]!)) : [];
    if (attached.length) return this.readAttachments(request, lastUserIndex, attached, input);
    const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
    const said = lastUser ? contentOf(lastUser) : '';
    // Rule 2: a forced choice is a call, also after tool results (as OpenAI's models do).
    const forced = this.forcedTool(request);
    if (!forced && last?.role === 'tool') {
      const results: string[] = [];
      for (let i = request.messages.length - 1; i >= 0 && request.messages[i]!.role === 'tool'; i--) results.unshift(contentOf(request.messages[i]!));
      const text = `Tool result: ${results.join('\n')}`;
      return this.finish(request, text, [], input);
    }
    const tool = forced ?? this.namedTool(request, said);
    if (tool) {
      const given = firstJsonObject(said);
      const call: ModelToolCall = {
        id: this.callId(request, lastUserIndex, tool.name),
        name: tool.name,
        input: jsonSchemaProblems(tool.inputSchema, given).length === 0 ? given : (exampleOf(tool.inputSchema) as Record<string, unknown>),
      };
      return {
        text: '',
        toolCalls: [call],
        stopReason: 'tool_use',
        usage: { inputTokens: input, outputTokens: tokens(JSON.stringify(call)), cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      };
    }
    const userTurns = request.messages.filter((m) => m.role === 'user').length;
    return this.finish(request, `Offline reply #${userTurns}: ${said}`, [], input);
  }

  /** `call_offline_<user turns>_<tool>`, with the round when a forced choice calls again after results. */
  private callId(request: ModelRequest, lastUserIndex: number, name: string): string {
    const userTurns = request.messages.filter((m) => m.role === 'user').length;
    const round = request.messages.slice(lastUserIndex + 1).filter((m) => m.role === 'assistant').length;
    return round ? `call_offline_${userTurns}_${round + 1}_${name}` : `call_offline_${userTurns}_${name}`;
  }

  /** Rule 2: the tool a forced choice names (`required`: the first offered). */
  private forcedTool(request: ModelRequest): ModelToolSpec | undefined {
    const choice = request.toolChoice;
    if (choice?.type === 'required') return request.tools[0];
    if (choice?.type === 'tool') return request.tools.find((t) => t.name === choice.name);
    return undefined;
  }

  /** Rule 4: the offered tool the last user message names (`use <tool>`, `call <tool>`). */
  private namedTool(request: ModelRequest, said: string): ModelToolSpec | undefined {
    const wanted = /\b(?:use|call)\s+(?:the\s+)?(?:tool\s+)?([A-Za-z0-9_.-]+)/i.exec(said)?.[1];
    return wanted ? request.tools.find((t) => t.name.toLowerCase() === wanted.toLowerCase()) : undefined;
  }

  /** Reads each attached document through its tool (one round), then names every file and quotes the documents. */
  private readAttachments(request: ModelRequest, lastUserIndex: number, attached: NotedFile[], input: number): ModelResponse {
    const after = request.messages.slice(lastUserIndex + 1);
    const calls = after.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
    const userTurns = request.messages.filter((m) => m.role === 'user').length;
    const unread = attached.filter(
      (f) => f.kind === 'document' && request.tools.some((t) => t.name === f.tool) && !calls.some((c) => c.input.fileId === f.fileId),
    );
    if (unread.length && calls.length === 0) {
      const toolCalls: ModelToolCall[] = unread.map((f, i) => ({
        id: `call_offline_${userTurns}_${i}_${f.tool}`,
        name: f.tool!,
        input: { fileId: f.fileId! },
      }));
      return {
        text: '',
        toolCalls,
        stopReason: 'tool_use',
        usage: { inputTokens: input, outputTokens: tokens(JSON.stringify(toolCalls)), cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      };
    }
    const results = new Map(after.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m] as const] : [])));
    const parts = attached.map((f) => {
      if (f.kind === 'image') {
        const images =
          request.messages[lastUserIndex]!.role === 'user' ? ((request.messages[lastUserIndex] as { images?: readonly unknown[] }).images?.length ?? 0) : 0;
        return `${f.name} (image${images ? ', seen' : ''})`;
      }
      const call = calls.find((c) => c.input.fileId === f.fileId);
      const result = call ? results.get(call.id) : undefined;
      if (!result) return `${f.name} (not read)`;
      if (result.isError) return `${f.name} (${f.tool} failed: ${result.content.slice(0, OFFLINE_QUOTE_CHARS)})`;
      return `${f.name}: "${result.content.slice(0, OFFLINE_QUOTE_CHARS)}"`;
    });
    return this.finish(
      request,
      `Offline reply #${userTurns}: I see ${attached.length} attached file${attached.length > 1 ? 's' : ''}. ${parts.join('; ')}`,
      [],
      input,
    );
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const response = await this.converse(request);
    for (const piece of response.text.match(/\S+\s*|\s+/g) ?? []) yield { type: 'text', delta: piece };
    yield { type: 'done', response };
  }

  private finish(request: ModelRequest, fullText: string, toolCalls: ModelToolCall[], input: number): ModelResponse {
    const max = request.options.maxTokens;
    let text = fullText;
    let stopReason: ModelResponse['stopReason'] = 'end_turn';
    for (const stop of request.options.stop ?? []) {
      const at = text.indexOf(stop);
      if (at >= 0) {
        text = text.slice(0, at);
        stopReason = 'stop_sequence';
      }
    }
    text = structured(request, text);
    if (max !== undefined && tokens(text) > max) {
      text = text.slice(0, max * 4);
      stopReason = 'max_tokens';
    }
    return { text, toolCalls, stopReason, usage: { inputTokens: input, outputTokens: tokens(text), cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } };
  }
}
