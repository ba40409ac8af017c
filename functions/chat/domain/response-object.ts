/**
 * The Responses API's `response` object (OpenAI's shape, valid against the Open Responses document),
 * plus the platform's `chatSessionId`: what a response says in each status, from the request that
 * asked for it and, once it ran, the turn's answer.
 */
import type { ClientTool } from './client-tools';
import type { StopReason } from './model';
import { functionCallItemId, messageItemId, responseId } from './response-ids';
import type { ReasoningEffort } from './responses-options';
import type { ResponsesRequest } from './responses-request';
import type { ToolCall } from '../../conversations/domain/session';

export type ResponseStatus = 'queued' | 'in_progress' | 'completed' | 'incomplete' | 'failed' | 'cancelled';

/** What names a response: its session and answer, and when it was created. A prepared turn is one. */
export interface TurnRef {
  readonly session: { readonly id: string };
  readonly answerId: string;
  readonly createdUnix: number;
}

/** A chat turn's answer, as every wire shape presents it. */
export interface AnsweredTurn {
  readonly text: string;
  /** Calls of the client's function tools, handed back to it (stopReason `tool_use`). */
  readonly toolCalls: readonly ToolCall[];
  readonly stopReason: StopReason;
  /** Every input token, those read from the model's prompt cache included. */
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Of promptTokens, those the model read from its prompt cache. */
  readonly cachedTokens: number;
  /** Of completionTokens, those the model spent reasoning, where it reports them. */
  readonly reasoningTokens: number;
}

type Status = ResponseStatus;

interface OutputText {
  readonly type: 'output_text';
  readonly text: string;
  readonly annotations: readonly never[];
  readonly logprobs: readonly never[];
}
type OutputItem =
  | { readonly type: 'message'; readonly id: string; readonly status: Status; readonly role: 'assistant'; readonly content: readonly OutputText[] }
  | {
      readonly type: 'function_call';
      readonly id: string;
      readonly status: Status;
      readonly call_id: string;
      readonly name: string;
      readonly arguments: string;
    };

export type ResponseObject = ReturnType<typeof responseObject>;

export const outputText = (text: string): OutputText => ({ type: 'output_text', text, annotations: [], logprobs: [] });

function incompleteReason(stop: StopReason): string | undefined {
  if (stop === 'max_tokens') return 'max_output_tokens';
  if (stop === 'content_filtered') return 'content_filter';
  return undefined;
}

/** The answer's output items: its text (when there is any, or no call), then each function call. */
export function outputOf(turn: TurnRef, result: AnsweredTurn): OutputItem[] {
  return assistantItems({ sessionId: turn.session.id, messageId: turn.answerId }, result.text, result.toolCalls);
}

/** The item kinds an assistant message becomes, in a response's output and in a conversation's items. */
type AssistantItem = Extract<OutputItem, { type: 'message' } | { type: 'function_call' }> & { readonly status: 'completed' };

/**
 * A stored assistant message as items: its text (when there is any, or no call), then each function call,
 * with the ids derived from the message (response-ids.ts).
 */
export function assistantItems(ref: { sessionId: string; messageId: string }, text: string, calls: readonly ToolCall[]): AssistantItem[] {
  const message: AssistantItem[] =
    text || calls.length === 0 ? [{ type: 'message', id: messageItemId(ref), status: 'completed', role: 'assistant', content: [outputText(text)] }] : [];
  return [
    ...message,
    ...calls.map(
      (c, i): AssistantItem => ({
        type: 'function_call',
        id: functionCallItemId(ref, i),
        status: 'completed',
        call_id: c.id,
        name: c.name,
        arguments: c.arguments,
      }),
    ),
  ];
}

/** A function tool as the response echoes it: every field present, `strict` false unless asked (as OpenAI does). */
function toolEcho(t: ClientTool) {
  return { type: 'function' as const, name: t.name, description: t.description || null, parameters: t.parameters, strict: t.strict ?? false };
}

/** The effort as the Open Responses document names it: `minimal` (passed on as given) is its `low`, `max` its `xhigh`. */
function effortEcho(effort: ReasoningEffort | null) {
  if (effort === 'minimal') return 'low';
  return effort === 'max' ? 'xhigh' : effort;
}

/**
 * `text` as the response echoes it. A json_schema format is echoed without its schema (null, as the
 * Open Responses document requires) but with every other field present.
 */
function textEcho(text: unknown) {
  const format = (text as { format: { type: string; name?: string; description?: string | null; strict?: boolean | null } }).format;
  if (format.type !== 'json_schema') return { format: { type: format.type } };
  return { format: { type: 'json_schema', name: format.name, description: format.description ?? null, schema: null, strict: format.strict ?? false } };
}

export function responseObject(
  turn: TurnRef,
  parsed: ResponsesRequest,
  state: { status: Status; result?: AnsweredTurn; error?: { code: string; message: string }; completedAt?: number },
) {
  const { echo } = parsed;
  const result = state.result;
  const reason = result ? incompleteReason(result.stopReason) : undefined;
  return {
    id: responseId({ sessionId: turn.session.id, messageId: turn.answerId }),
    object: 'response' as const,
    created_at: turn.createdUnix,
    completed_at: state.status === 'completed' && !reason ? (state.completedAt ?? null) : null,
    status: state.status === 'completed' && reason ? ('incomplete' as const) : state.status,
    error: state.error ?? null,
    incomplete_details: state.status === 'completed' && reason ? { reason } : null,
    instructions: echo.instructions,
    max_output_tokens: echo.maxOutputTokens,
    model: parsed.turn.model,
    output: result ? outputOf(turn, result) : [],
    parallel_tool_calls: echo.parallelToolCalls,
    previous_response_id: echo.previousResponseId,
    reasoning: { effort: effortEcho(echo.reasoning.effort), summary: echo.reasoning.summary },
    store: echo.store,
    // The platform's defaults where the request set nothing: a strict client needs a number.
    temperature: echo.temperature ?? 1,
    text: textEcho(echo.text),
    tool_choice: echo.toolChoice,
    tools: echo.tools.map(toolEcho),
    top_p: echo.topP ?? 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    top_logprobs: echo.topLogprobs,
    max_tool_calls: echo.maxToolCalls,
    background: parsed.background,
    service_tier: 'default',
    safety_identifier: echo.safetyIdentifier,
    prompt_cache_key: echo.promptCacheKey,
    truncation: 'disabled',
    usage: result
      ? {
          input_tokens: result.promptTokens,
          input_tokens_details: { cached_tokens: result.cachedTokens },
          output_tokens: result.completionTokens,
          output_tokens_details: { reasoning_tokens: result.reasoningTokens },
          total_tokens: result.promptTokens + result.completionTokens,
        }
      : null,
    metadata: echo.metadata,
    conversation: parsed.conversationId !== undefined ? { id: parsed.conversationId } : null,
    chatSessionId: turn.session.id,
  };
}
