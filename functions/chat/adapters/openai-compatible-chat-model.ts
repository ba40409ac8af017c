/**
 * Any OpenAI-compatible chat-completions endpoint (a self-hosted model server, a gateway): base URL and
 * key from configuration. Tools use the OpenAI function-calling shape; streams are parsed from SSE.
 */
import type { ResponseFormat } from '../domain/client-tools';
import type { ModelMessage, ModelRequest, ModelResponse, ModelStreamEvent, ModelToolCall, ModelToolChoice, StopReason } from '../domain/model';
import type { ChatModel } from '../app/chat-ports';

export interface OpenAiCompatibleConfig {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly timeoutMs?: number;
}

interface WireToolCall {
  id?: string;
  index?: number;
  function?: { name?: string; arguments?: string };
}

function toWireMessages(request: ModelRequest): unknown[] {
  const out: unknown[] = request.system.map((content) => ({ role: 'system', content }));
  for (const m of request.messages as ModelMessage[]) {
    if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
    else if (m.role === 'assistant' && m.toolCalls?.length) {
      out.push({
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })),
      });
    } else if (m.role === 'user' && m.images?.length) {
      // Vision input: the text part, then each image as a data URL (OpenAI's `image_url` content part).
      out.push({
        role: 'user',
        content: [
          { type: 'text', text: m.content },
          ...m.images.map((image) => ({
            type: 'image_url',
            image_url: { url: `data:image/${image.format};base64,${Buffer.from(image.bytes).toString('base64')}` },
          })),
        ],
      });
    } else out.push({ role: m.role, content: m.content });
  }
  return out;
}

function wireToolChoice(choice: ModelToolChoice | undefined): { tool_choice?: unknown } {
  if (!choice || choice.type === 'auto') return {};
  return { tool_choice: choice.type === 'required' ? 'required' : { type: 'function', function: { name: choice.name } } };
}

/** Structured output in OpenAI's own shape (servers that cannot honour it are checked by the platform anyway). */
function wireResponseFormat(format: ResponseFormat | undefined): { response_format?: unknown } {
  if (!format || format.type === 'text') return {};
  if (format.type === 'json_object') return { response_format: { type: 'json_object' } };
  return { response_format: { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, strict: format.strict } } };
}

function stopReasonOf(finish: string | null | undefined): StopReason {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'content_filtered';
    default:
      return 'end_turn';
  }
}

function parseArguments(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

function usageOf(u: WireUsage | undefined) {
  const cached = u?.prompt_tokens_details?.cached_tokens ?? 0;
  return { inputTokens: (u?.prompt_tokens ?? 0) - cached, outputTokens: u?.completion_tokens ?? 0, cacheReadInputTokens: cached, cacheCreationInputTokens: 0 };
}

function reasoningOf(u: WireUsage | undefined): { reasoningTokens?: number } {
  const n = u?.completion_tokens_details?.reasoning_tokens;
  return typeof n === 'number' ? { reasoningTokens: n } : {};
}

export class OpenAiCompatibleChatModel implements ChatModel {
  constructor(private readonly config: OpenAiCompatibleConfig) {}

  private body(request: ModelRequest, stream: boolean): string {
    return JSON.stringify({
      model: request.modelId,
      messages: toWireMessages(request),
      ...(request.tools.length
        ? {
            tools: request.tools.map((t) => ({
              type: 'function',
              function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.inputSchema },
            })),
            ...wireToolChoice(request.toolChoice),
            ...(request.parallelToolCalls === false ? { parallel_tool_calls: false } : {}),
          }
        : {}),
      ...wireResponseFormat(request.responseFormat),
      ...(request.options.temperature !== undefined ? { temperature: request.options.temperature } : {}),
      ...(request.options.topP !== undefined ? { top_p: request.options.topP } : {}),
      ...(request.options.maxTokens !== undefined ? { max_tokens: request.options.maxTokens } : {}),
      ...(request.options.stop ? { stop: request.options.stop } : {}),
      ...(request.options.seed !== undefined ? { seed: request.options.seed } : {}),
      ...(request.options.presencePenalty !== undefined ? { presence_penalty: request.options.presencePenalty } : {}),
      ...(request.options.frequencyPenalty !== undefined ? { frequency_penalty: request.options.frequencyPenalty } : {}),
      ...(request.options.reasoningEffort !== undefined ? { reasoning_effort: request.options.reasoningEffort } : {}),
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    });
  }

  private async post(request: ModelRequest, stream: boolean): Promise<Response> {
    const res = await fetch(`${this.config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(this.config.apiKey ? { Authorization: `Bearer ${this.config.apiKey}` } : {}) },
      body: this.body(request, stream),
      signal: AbortSignal.timeout(this.config.timeoutMs ?? 120_000),
    });
    if (!res.ok) throw new Error(`model endpoint answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return res;
  }

  async converse(request: ModelRequest): Promise<ModelResponse> {
    const res = await this.post(request, false);
    const body = (await res.json()) as {
      choices?: { message?: { content?: string | null; tool_calls?: WireToolCall[] }; finish_reason?: string }[];
      usage?: WireUsage;
    };
    const choice = body.choices?.[0];
    const toolCalls: ModelToolCall[] = (choice?.message?.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${i}`,
      name: c.function?.name ?? '',
      input: parseArguments(c.function?.arguments),
      ...(c.function?.arguments !== undefined ? { inputText: c.function.arguments } : {}),
    }));
    return {
      text: choice?.message?.content ?? '',
      toolCalls,
      stopReason: toolCalls.length ? 'tool_use' : stopReasonOf(choice?.finish_reason),
      usage: usageOf(body.usage),
      ...reasoningOf(body.usage),
    };
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const res = await this.post(request, true);
    let text = '';
    let finish: string | undefined;
    let usage: WireUsage | undefined;
    const calls = new Map<number, { id?: string; name: string; args: string }>();
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') continue;
        const event = JSON.parse(data) as {
          choices?: { delta?: { content?: string | null; tool_calls?: WireToolCall[] }; finish_reason?: string | null }[];
          usage?: WireUsage;
        };
        if (event.usage) usage = event.usage;
        for (const choice of event.choices ?? []) {
          if (choice.finish_reason) finish = choice.finish_reason;
          const delta = choice.delta?.content;
          if (delta) {
            text += delta;
            yield { type: 'text', delta };
          }
          for (const tc of choice.delta?.tool_calls ?? []) {
            const slot = calls.get(tc.index ?? 0) ?? { name: '', args: '' };
            if (tc.id) slot.id = tc.id;
            if (tc.function?.name) slot.name += tc.function.name;
            if (tc.function?.arguments) slot.args += tc.function.arguments;
            calls.set(tc.index ?? 0, slot);
          }
        }
      }
    }
    const toolCalls = [...calls.entries()].map(([i, c]) => ({ id: c.id ?? `call_${i}`, name: c.name, input: parseArguments(c.args), inputText: c.args }));
    yield {
      type: 'done',
      response: { text, toolCalls, stopReason: toolCalls.length ? 'tool_use' : stopReasonOf(finish), usage: usageOf(usage), ...reasoningOf(usage) },
    };
  }
}
