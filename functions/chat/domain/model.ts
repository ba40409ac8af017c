/**
 * The model port's vocabulary: a provider-neutral conversation with tool calls, the shape the Bedrock
 * Converse API, OpenAI-compatible servers and the offline model are all mapped to.
 */
import type { GenerationOptions } from './turn-fields';
import type { ResponseFormat } from './client-tools';
import type { TokenCounts } from '../../tenancy/domain/pricing';

export interface ModelToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the tool's input. */
  readonly inputSchema: Record<string, unknown>;
}

export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** The arguments as the model wrote them (a JSON text), where the provider gives text: handed to the client as is. */
  readonly inputText?: string;
}

/** An image passed to the model as vision input (attachments). */
export interface ModelImage {
  readonly format: 'png' | 'jpeg';
  readonly bytes: Uint8Array;
}

export type ModelMessage =
  | { readonly role: 'user'; readonly content: string; readonly images?: readonly ModelImage[] }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ModelToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string; readonly isError: boolean };

/** Whether the model may answer without a tool call: `required` (some tool) or one tool by name forces a call. */
export type ModelToolChoice = { readonly type: 'auto' } | { readonly type: 'required' } | { readonly type: 'tool'; readonly name: string };

export interface ModelRequest {
  /** The provider's model id (for Bedrock, the model or inference profile id). */
  readonly modelId: string;
  readonly system: readonly string[];
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ModelToolSpec[];
  readonly options: GenerationOptions;
  /** Only with tools; `auto` when absent. */
  readonly toolChoice?: ModelToolChoice;
  /** false: at most one tool call in the answer (a model that makes more has the rest dropped by the platform). */
  readonly parallelToolCalls?: boolean;
  /** Structured output: given natively to models that take it, as an instruction to the others; checked by the platform. */
  readonly responseFormat?: ResponseFormat;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'content_filtered';

export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly stopReason: StopReason;
  readonly usage: TokenCounts;
  /** Of the output tokens, those spent reasoning, where the provider reports them (billed as output either way). */
  readonly reasoningTokens?: number;
}

/** A streamed call: text deltas as they come, then the complete response. */
export type ModelStreamEvent = { readonly type: 'text'; readonly delta: string } | { readonly type: 'done'; readonly response: ModelResponse };

/** OpenAI's `finish_reason` for a stop reason. */
export function finishReasonOf(stop: StopReason): 'stop' | 'length' | 'tool_calls' | 'content_filter' {
  switch (stop) {
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'content_filtered':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** `offline`, `bedrock:<model id>` or `openai:<model>`: the app setting that picks the provider. */
export interface ModelSelection {
  readonly provider: 'offline' | 'bedrock' | 'openai';
  readonly modelId: string;
}

export function parseModelSetting(setting: string): ModelSelection | undefined {
  if (setting === 'offline') return { provider: 'offline', modelId: 'offline' };
  const m = /^(bedrock|openai):(.{1,200})$/.exec(setting);
  return m ? { provider: m[1] as 'bedrock' | 'openai', modelId: m[2]! } : undefined;
}
