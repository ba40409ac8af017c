/**
 * Amazon Bedrock through the Converse and ConverseStream APIs: the AWS default model provider.
 * Maps the provider-neutral conversation to Converse messages (tool use, tool results, image blocks)
 * and Converse responses and stream events back.
 */
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type ContentBlock,
  type ConverseCommandInput,
  type ConverseStreamOutput,
  type Message,
  type TokenUsage,
  type ToolChoice,
} from '@aws-sdk/client-bedrock-runtime';
import type { ModelRequest, ModelResponse, ModelStreamEvent, ModelToolCall, ModelToolChoice, StopReason } from '../domain/model';
import { formatInstruction } from '../domain/structured-output';
import { argumentsObject } from '../domain/client-tools';
import type { ChatModel } from '../app/chat-ports';

export function toConverseInput(request: ModelRequest): ConverseCommandInput {
  const messages: Message[] = [];
  const push = (role: 'user' | 'assistant', block: ContentBlock) => {
    const last = messages[messages.length - 1];
    // Converse wants alternating roles: consecutive blocks of one role (tool results) share a message.
    if (last && last.role === role) last.content!.push(block);
    else messages.push({ role, content: [block] });
  };
  // Converse takes tool-use blocks only beside a tool configuration: a call without tools (the last
  // round of a turn, a later turn that offers none) sees earlier tool calls and results as text.
  const asText = request.tools.length === 0;
  for (const m of request.messages) {
    if (m.role === 'user') {
      for (const image of m.images ?? []) push('user', { image: { format: image.format, source: { bytes: image.bytes } } });
      push('user', { text: m.content });
    } else if (m.role === 'assistant') {
      if (m.content) push('assistant', { text: m.content });
      for (const call of m.toolCalls ?? []) {
        if (asText) push('assistant', { text: `[called tool ${call.name} (${call.id}) with ${JSON.stringify(call.input)}]` });
        else push('assistant', { toolUse: { toolUseId: call.id, name: call.name, input: call.input as never } });
      }
    } else if (asText) {
      push('user', { text: `[result of tool call ${m.toolCallId}${m.isError ? ', an error' : ''}]\n${m.content}` });
    } else {
      push('user', { toolResult: { toolUseId: m.toolCallId, content: [{ text: m.content }], status: m.isError ? 'error' : 'success' } });
    }
  }
  const format = request.responseFormat ? formatInstruction(request.responseFormat) : undefined;
  const system = format ? [...request.system, format] : request.system;
  const { temperature, topP, maxTokens, stop } = request.options;
  const budget = thinkingBudget(request);
  // Extended thinking takes neither temperature nor top_p (Anthropic's models on Bedrock refuse them).
  const inference = {
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(temperature !== undefined && !budget ? { temperature } : {}),
    ...(topP !== undefined && !budget ? { topP } : {}),
    ...(stop ? { stopSequences: [...stop] } : {}),
  };
  return {
    modelId: request.modelId,
    messages,
    ...(system.length ? { system: system.map((text) => ({ text })) } : {}),
    ...(Object.keys(inference).length ? { inferenceConfig: inference } : {}),
    ...(budget ? { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: budget } } } : {}),
    ...(request.tools.length
      ? {
          toolConfig: {
            // Converse refuses an empty description (at least one character): a client tool without one sends none.
            tools: request.tools.map((t) => ({
              toolSpec: { name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: { json: t.inputSchema as never } },
            })),
            ...converseToolChoice(request.toolChoice),
          },
        }
      : {}),
  };
}

/** Anthropic's models on Bedrock that think with a token budget (extended thinking). */
const THINKING_MODELS = /anthropic\.claude-(3-7-sonnet|sonnet-4|opus-4|haiku-4-5)/;
/** The budget for each effort; Anthropic's minimum is 1,024 tokens. */
const THINKING_BUDGETS: Readonly<Record<string, number>> = { minimal: 1024, low: 2048, medium: 8192, high: 16_384, xhigh: 32_768, max: 32_768 };
const MIN_THINKING_BUDGET = 1024;

/**
 * The thinking budget of a request, or undefined when it asks for none or cannot have one: a model
 * without extended thinking, `effort: none`, a call that offers tools (a tool loop with thinking must
 * send each round's thinking blocks back, which the platform's transcript does not keep), or a
 * `max_tokens` that leaves no room for the minimum budget (it must exceed the budget).
 */
export function thinkingBudget(request: ModelRequest): number | undefined {
  const effort = request.options.reasoningEffort;
  if (effort === undefined || effort === 'none' || request.tools.length > 0 || !THINKING_MODELS.test(request.modelId)) return undefined;
  const wanted = THINKING_BUDGETS[effort] ?? THINKING_BUDGETS.medium!;
  const cap = request.options.maxTokens !== undefined ? request.options.maxTokens - 1 : wanted;
  const budget = Math.min(wanted, cap);
  return budget >= MIN_THINKING_BUDGET ? budget : undefined;
}

/** `required` is Converse's `any`; a named tool its `tool`; `auto` is the default and not sent. */
function converseToolChoice(choice: ModelToolChoice | undefined): { toolChoice?: ToolChoice } {
  if (!choice || choice.type === 'auto') return {};
  return { toolChoice: choice.type === 'required' ? { any: {} } : { tool: { name: choice.name } } };
}

export function stopReasonOf(reason: string | undefined): StopReason {
  switch (reason) {
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
      return 'max_tokens';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filtered';
    default:
      return 'end_turn';
  }
}

function usageOf(u: TokenUsage | undefined) {
  return {
    inputTokens: u?.inputTokens ?? 0,
    outputTokens: u?.outputTokens ?? 0,
    cacheReadInputTokens: u?.cacheReadInputTokens ?? 0,
    cacheCreationInputTokens: u?.cacheWriteInputTokens ?? 0,
  };
}

export class BedrockChatModel implements ChatModel {
  constructor(private readonly client: BedrockRuntimeClient) {}

  async converse(request: ModelRequest): Promise<ModelResponse> {
    const out = await this.client.send(new ConverseCommand(toConverseInput(request)));
    let text = '';
    const toolCalls: ModelToolCall[] = [];
    for (const block of out.output?.message?.content ?? []) {
      if (block.text !== undefined) text += block.text;
      if (block.toolUse)
        toolCalls.push({ id: block.toolUse.toolUseId ?? '', name: block.toolUse.name ?? '', input: (block.toolUse.input ?? {}) as Record<string, unknown> });
    }
    return { text, toolCalls, stopReason: stopReasonOf(out.stopReason), usage: usageOf(out.usage) };
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const out = await this.client.send(new ConverseStreamCommand(toConverseInput(request)));
    let text = '';
    let stop: string | undefined;
    let usage: TokenUsage | undefined;
    const tools = new Map<number, { id: string; name: string; input: string }>();
    for await (const event of (out.stream ?? []) as AsyncIterable<ConverseStreamOutput>) {
      if (event.contentBlockStart?.start?.toolUse) {
        const t = event.contentBlockStart.start.toolUse;
        tools.set(event.contentBlockStart.contentBlockIndex ?? 0, { id: t.toolUseId ?? '', name: t.name ?? '', input: '' });
      } else if (event.contentBlockDelta?.delta) {
        const delta = event.contentBlockDelta.delta;
        if (delta.text !== undefined) {
          text += delta.text;
          yield { type: 'text', delta: delta.text };
        } else if (delta.toolUse?.input !== undefined) {
          const slot = tools.get(event.contentBlockDelta.contentBlockIndex ?? 0);
          if (slot) slot.input += delta.toolUse.input;
        }
      } else if (event.messageStop) {
        stop = event.messageStop.stopReason;
      } else if (event.metadata) {
        usage = event.metadata.usage;
      } else {
        const failure =
          event.internalServerException ??
          event.modelStreamErrorException ??
          event.validationException ??
          event.throttlingException ??
          event.serviceUnavailableException;
        if (failure) throw new Error(`Bedrock stream failed: ${failure.message ?? 'unknown error'}`);
      }
    }
    // A model's tool input that is no JSON object (cut short, say) is an empty input, never a failed turn.
    const toolCalls = [...tools.values()].map((t) => ({ id: t.id, name: t.name, input: argumentsObject(t.input), ...(t.input ? { inputText: t.input } : {}) }));
    yield { type: 'done', response: { text, toolCalls, stopReason: stopReasonOf(stop), usage: usageOf(usage) } };
  }
}

/** The Bedrock model with a client of its own: what the wiring imports on a function's first Bedrock turn. */
export function bedrockChatModel(region: string | undefined): ChatModel {
  return new BedrockChatModel(new BedrockRuntimeClient({ region }));
}
