/**
 * One chat turn of area B: checks everything that can fail before the first byte (app, session,
 * files, credits, caps), then runs the model with the app's MCP tools until it answers, and records the
 * turn (messages, tool markers, one usage row per model call, the charge) touch first.
 */
import type { ChatRequest } from '../domain/chat-request';
import { newTurnMessages } from '../domain/chat-request';
import { DomainError, notFound } from '../domain/errors';
import { parseModelSetting, type ModelMessage, type ModelResponse, type StopReason } from '../domain/model';
import { costPicoUsd, formatUsd, parseUsd } from '../domain/pricing';
import type { Session, ToolMarker } from '../domain/session';
import { microsToMs } from '../domain/time';
import type { ChatModel, ConnectedTool } from '../ports/chat';
import type { Deps } from '../ports/deps';
import type { ChatPrincipal } from './authenticate-chat-key';
import { appendToSession, startSession, type TurnMessage, type TurnUsage } from './record-session-activity';

type ChatDeps = Pick<Deps, 'apps' | 'sessions' | 'consumers' | 'usage' | 'ids' | 'clock' | 'settings' | 'models' | 'tools' | 'variables' | 'billing'>;

/** Model calls one turn may make: tool rounds plus the final answer. */
export const MAX_MODEL_CALLS = 6;
export const USAGE_SOURCE = 'api';
export const SESSION_SOURCE = 'API';
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PreparedTurn {
  readonly session: Session;
  readonly created: boolean;
  readonly completionId: string;
  readonly createdUnix: number;
  readonly model: ChatModel;
  readonly modelId: string;
  readonly context: ModelMessage[];
  readonly system: string[];
  readonly newMessages: TurnMessage[];
  readonly variables: Record<string, string>;
}

export type TurnEvent = { readonly type: 'text'; readonly delta: string };

export interface TurnResult {
  readonly text: string;
  readonly stopReason: StopReason;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

function month(nowUs: number): string {
  return new Date(microsToMs(nowUs)).toISOString().slice(0, 7);
}

/**
 * Validation rule 3 onwards, and everything else that must answer with a status before streaming:
 * the app (404), the session (400 on conflicting ids, 404 when unknown or another app's), files (404),
 * credits and the app's monthly cap (402). Creates the session of a first call.
 */
export async function prepareChatTurn(deps: ChatDeps, input: { principal: ChatPrincipal; request: ChatRequest; headerSessionId?: string }): Promise<PreparedTurn> {
  const { principal, request } = input;
  // Rule 3. A key only reaches its own app: any other model name answers like an unknown one.
  if (request.model !== principal.app.appNameId) throw notFound(`Model not found: ${request.model}`);
  const app = principal.app;
  const sessionId = resolveSessionId(request.chatSessionId, input.headerSessionId);
  // Rule 5: no file has been uploaded through /chat/files yet, so every reference is unknown.
  if (request.files.length > 0) throw notFound(`File not found: ${request.files[0]!.fileId}`);

  const selection = parseModelSetting(app.settings.model);
  const model = selection ? deps.models.modelFor(selection) : undefined;
  if (!selection || !model) throw new DomainError('unavailable', `The app's model "${app.settings.model}" is not available on this platform`);

  const [credits, spend] = await Promise.all([deps.billing.credits(principal.org.id), deps.billing.monthSpend(app.id, month(deps.clock.nowUs()))]);
  if (credits !== undefined && credits <= 0n) throw new DomainError('payment_required', 'Insufficient credits: add credits to the organization');
  const cap = app.settings.monthlyUsageCapUsd !== null ? parseUsd(app.settings.monthlyUsageCapUsd) : undefined;
  if (cap !== undefined && spend >= cap) throw new DomainError('payment_required', "Usage cap reached: the app's monthly usage cap is used up");

  const zdr = app.settings.zeroDataRetention;
  let session: Session;
  let created = false;
  if (sessionId !== undefined) {
    // Session ids are UUIDs: anything else names no session, and never reaches DynamoDB as a key.
    const found = SESSION_ID.test(sessionId) ? await deps.sessions.get(sessionId) : undefined;
    if (!found || found.appId !== app.id) throw notFound('Chat session not found');
    session = found;
  } else {
    const firstUser = request.messages.find((m) => m.role === 'user')?.content ?? '';
    // The title would be message text: a Zero Data Retention app keeps none.
    session = await startSession(deps, { appId: app.id, title: zdr ? '' : firstUser.slice(0, 80), source: SESSION_SOURCE });
    created = true;
  }
  const variables = await deps.variables.merge(session.id, request.variables);

  // A Zero Data Retention session has no stored transcript: the history the client resends is the context.
  const history = created || zdr ? [] : await deps.sessions.listMessages(session.id);
  const newMessages = newTurnMessages(request.messages, !created && !zdr);
  const all = [...history, ...newMessages];
  const system = all.filter((m) => m.role === 'system').map((m) => m.content);
  const context: ModelMessage[] = all
    .filter((m) => m.role !== 'system')
    .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
  return {
    session,
    created,
    completionId: `chatcmpl-${deps.ids.uuid().replace(/-/g, '')}`,
    createdUnix: Math.floor(microsToMs(deps.clock.nowUs()) / 1000),
    model,
    modelId: selection.modelId,
    context,
    system,
    newMessages,
    variables,
  };
}

function resolveSessionId(body: string | undefined, header: string | undefined): string | undefined {
  if (body !== undefined && header !== undefined && body !== header) {
    throw new DomainError('bad_request', 'chatSessionId and the X-Chat-Session-ID header name different sessions');
  }
  return body ?? header;
}

/**
 * Runs the model (and the app's MCP tools) until it answers, yielding text as it is produced when
 * `stream` is set, then records the turn and charges it. Returns the final answer.
 */
export async function* runChatTurn(deps: ChatDeps, turn: PreparedTurn, input: { principal: ChatPrincipal; request: ChatRequest }): AsyncGenerator<TurnEvent, TurnResult> {
  const { app } = input.principal;
  const tools: ConnectedTool[] = app.settings.mcpConnections.length ? await deps.tools.listTools(app.settings.mcpConnections, turn.variables) : [];
  const messages: ModelMessage[] = [...turn.context];
  const markers: ToolMarker[] = [];
  const usage: TurnUsage[] = [];
  let text = '';
  let response: ModelResponse | undefined;
  try {
    for (let call = 0; call < MAX_MODEL_CALLS; call++) {
      const request = { modelId: turn.modelId, system: turn.system, messages, tools: call < MAX_MODEL_CALLS - 1 ? tools.map((t) => t.spec) : [], options: input.request.options };
      if (input.request.stream) {
        for await (const event of turn.model.stream(request)) {
          if (event.type === 'text') {
            text += event.delta;
            yield { type: 'text', delta: event.delta };
          } else response = event.response;
        }
      } else {
        response = await turn.model.converse(request);
        text += response.text;
      }
      const r = response!;
      usage.push({ model: turn.modelId, source: USAGE_SOURCE, ...r.usage, costUsd: formatUsd(costPicoUsd(turn.modelId, r.usage)) });
      if (r.toolCalls.length === 0) break;
      messages.push({ role: 'assistant', content: r.text, toolCalls: r.toolCalls });
      for (const toolCall of r.toolCalls) {
        const tool = tools.find((t) => t.spec.name === toolCall.name);
        const connection = app.settings.mcpConnections.find((c) => c.name === tool?.connection);
        let result = { content: `Unknown tool: ${toolCall.name}`, isError: true };
        if (connection) {
          try {
            result = await deps.tools.callTool(connection, turn.variables, { name: toolCall.name, input: toolCall.input });
          } catch (err) {
            result = { content: `Tool ${toolCall.name} failed: ${(err as Error).message}`, isError: true };
          }
        }
        markers.push({ id: toolCall.id, name: toolCall.name, type: 'tool', success: !result.isError });
        messages.push({ role: 'tool', toolCallId: toolCall.id, content: result.content, isError: result.isError });
      }
    }
  } catch (err) {
    // The model calls that completed before the failure were made and cost money: their usage rows
    // and charge are recorded even though the turn itself (its messages) is not.
    if (usage.length > 0) await recordUsage(deps, turn, input.principal, usage);
    throw err;
  }
  const final = response!;
  await appendToSession(deps, {
    sessionId: turn.session.id,
    messages: [
      ...turn.newMessages.map((m) => ({ role: m.role, content: m.content })),
      { role: 'assistant', content: text, ...(markers.length ? { tools: markers } : {}) },
    ],
    usage,
  });
  await charge(deps, input.principal, usage);
  const promptTokens = usage.reduce((s, u) => s + u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens, 0);
  const completionTokens = usage.reduce((s, u) => s + u.outputTokens, 0);
  return { text, stopReason: final.stopReason, promptTokens, completionTokens };
}

async function charge(deps: ChatDeps, principal: ChatPrincipal, usage: readonly TurnUsage[]): Promise<void> {
  const totalPico = usage.reduce((sum, u) => sum + (parseUsd(u.costUsd) ?? 0n), 0n);
  await deps.billing.charge(principal.org.id, principal.app.id, month(deps.clock.nowUs()), totalPico);
}

async function recordUsage(deps: ChatDeps, turn: PreparedTurn, principal: ChatPrincipal, usage: readonly TurnUsage[]): Promise<void> {
  await appendToSession(deps, { sessionId: turn.session.id, messages: [], usage });
  await charge(deps, principal, usage);
}
