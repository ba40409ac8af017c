/**
 * The second half of a chat turn of area B (prepared by prepare-chat-turn.ts): runs the model with the
 * app's MCP tools and the built-in document tools until it answers, then records the turn (messages,
 * tool markers, one usage row per model call, the charge) touch first.
 */
import type { McpConnection } from '../../platform/domain/app';
import { AnswerLimit } from '../domain/answer-limit';
import type { ChatRequest } from '../domain/chat-request';
import type { ModelMessage, ModelResponse, ModelToolCall, StopReason } from '../domain/model';
import { costPicoUsd, formatUsd, parseUsd } from '../../platform/domain/pricing';
import type { ToolMarker } from '../../conversations/domain/session';
import { msToMicros } from '../../platform/domain/time';
import type { ConnectedTool, ListedTools, ToolCallResult } from '../ports/chat-ports';
import type { ChatPrincipal } from '../../platform/app/authenticate-chat-key';
import { isDocumentTool, readDocumentTool } from './chat-attachments';
import { billingMonth, TURN_LEASE_MS, TURN_LEASE_RENEW_MS, type ChatTurnDeps, type PreparedTurn } from './prepare-chat-turn';
import { appendToSession, createSession, type TurnUsage } from './record-session-activity';

/** Model calls one turn may make: tool rounds plus the final answer. */
export const MAX_MODEL_CALLS = 6;
export const USAGE_SOURCE = 'api';

export type TurnEvent = { readonly type: 'text'; readonly delta: string };

export interface TurnResult {
  readonly text: string;
  readonly stopReason: StopReason;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/**
 * Runs the model (and the app's MCP tools) until it answers, yielding text as it is produced when
 * `stream` is set, then records the turn and charges it. Returns the final answer.
 */
export async function* runChatTurn(
  deps: ChatTurnDeps,
  turn: PreparedTurn,
  input: { principal: ChatPrincipal; request: ChatRequest },
): AsyncGenerator<TurnEvent, TurnResult> {
  const { leaseId } = turn;
  // The turn keeps the session's lease while it runs (a streamed turn may outlast one lease period).
  const renew = setInterval(() => {
    void deps.sessions.renewTurnLease(turn.session.id, leaseId, deps.clock.nowUs() + msToMicros(TURN_LEASE_MS)).catch(() => undefined);
  }, TURN_LEASE_RENEW_MS);
  renew.unref();
  const written = { session: !turn.created };
  try {
    return yield* runTurn(deps, turn, input, written);
  } finally {
    clearInterval(renew);
    // A first turn that failed before writing its session takes its reservation back.
    const unreserved = !written.session && (await deps.sessions.unreserve(turn.session.id, leaseId).catch(() => false));
    if (!unreserved) await deps.sessions.releaseTurnLease(turn.session.id, leaseId).catch(() => undefined);
  }
}

async function* runTurn(
  deps: ChatTurnDeps,
  turn: PreparedTurn,
  input: { principal: ChatPrincipal; request: ChatRequest },
  written: { session: boolean },
): AsyncGenerator<TurnEvent, TurnResult> {
  const { app } = input.principal;
  // A tool connection that is down, too slow or failing is unavailable for this turn (a marker with
  // success: false says so in the export); the model answers with what is left.
  const listed: ListedTools = app.settings.mcpConnections.length
    ? await deps.tools.listTools(app.settings.mcpConnections, turn.variables)
    : { tools: [], unavailable: [] };
  // The built-in document tools take precedence over an MCP tool of the same name.
  const tools = listed.tools.filter((t) => !turn.documentTools.some((d) => d.name === t.spec.name));
  const toolSpecs = [...turn.documentTools, ...tools.map((t) => t.spec)];
  const messages: ModelMessage[] = [...turn.context];
  const markers: ToolMarker[] = listed.unavailable.map((u, i) => ({
    id: `mcp_unavailable_${i + 1}`,
    name: u.connection,
    type: 'mcp_connection',
    success: false,
  }));
  const usage: TurnUsage[] = [];
  // The answer is bounded like a message (docs/adr/0024): past the limit nothing more is sent or kept,
  // the model's output is still read to its end (its usage is billed), and no further tool round runs.
  const limit = new AnswerLimit();
  let text = '';
  let response: ModelResponse | undefined;
  try {
    for (let call = 0; call < MAX_MODEL_CALLS; call++) {
      const request = {
        modelId: turn.modelId,
        system: turn.system,
        messages,
        tools: call < MAX_MODEL_CALLS - 1 ? toolSpecs : [],
        options: input.request.options,
      };
      if (input.request.stream) {
        for await (const event of turn.model.stream(request)) {
          if (event.type === 'done') response = event.response;
          else {
            const delta = limit.take(event.delta);
            text += delta;
            if (delta) yield { type: 'text', delta };
          }
        }
      } else {
        response = await turn.model.converse(request);
        text += limit.take(response.text);
      }
      const r = response!;
      usage.push({ model: turn.modelId, source: USAGE_SOURCE, ...r.usage, costUsd: formatUsd(costPicoUsd(turn.modelId, r.usage)) });
      if (limit.reached || r.toolCalls.length === 0) break;
      messages.push({ role: 'assistant', content: r.text, toolCalls: r.toolCalls });
      for (const toolCall of r.toolCalls) {
        const result = await callTurnTool(deps, turn, { tools, connections: app.settings.mcpConnections }, toolCall);
        markers.push({ id: toolCall.id, name: toolCall.name, type: 'tool', success: !result.isError });
        messages.push({ role: 'tool', toolCallId: toolCall.id, content: result.content, isError: result.isError });
      }
    }
  } catch (err) {
    // The model calls that completed before the failure were made and cost money: their usage rows
    // and charge are recorded even though the turn itself (its messages) is not.
    if (usage.length > 0) {
      await persistNewSession(deps, turn, written);
      await recordUsage(deps, turn, input.principal, usage);
    }
    throw err;
  }
  const final = response!;
  await persistNewSession(deps, turn, written);
  // Before the messages: a crash in between leaves files referenced by the session (removed with it).
  if (turn.attachments.length)
    await deps.files.attach(
      turn.session.id,
      turn.attachments.map((a) => a.file),
      deps.clock.nowUs(),
    );
  await appendToSession(deps, {
    sessionId: turn.session.id,
    turnId: turn.completionId,
    messages: [
      ...turn.newMessages.map((m) => ({ role: m.role, content: m.content, ...(m.files ? { files: m.files } : {}) })),
      { role: 'assistant', content: text, ...(markers.length ? { tools: markers } : {}) },
    ],
    usage,
  });
  await charge(deps, input.principal, usage);
  const promptTokens = usage.reduce((s, u) => s + u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens, 0);
  const completionTokens = usage.reduce((s, u) => s + u.outputTokens, 0);
  return { text, stopReason: limit.reached ? 'max_tokens' : final.stopReason, promptTokens, completionTokens };
}

/** One tool call of the model: a built-in document tool or the app's MCP tool; a failure is the model's to read. */
async function callTurnTool(
  deps: ChatTurnDeps,
  turn: PreparedTurn,
  { tools, connections }: { readonly tools: readonly ConnectedTool[]; readonly connections: readonly McpConnection[] },
  toolCall: ModelToolCall,
): Promise<ToolCallResult> {
  const connection = connections.find((c) => c.name === tools.find((t) => t.spec.name === toolCall.name)?.connection);
  const builtIn = isDocumentTool(toolCall.name) && turn.documentTools.some((d) => d.name === toolCall.name);
  if (!builtIn && !connection) return { content: `Unknown tool: ${toolCall.name}`, isError: true };
  try {
    return builtIn
      ? await readDocumentTool(deps, turn.documents, toolCall)
      : await deps.tools.callTool(connection!, turn.variables, { name: toolCall.name, input: toolCall.input });
  } catch (err) {
    return { content: `Tool ${toolCall.name} failed: ${(err as Error).message}`, isError: true };
  }
}

/** The session of a first call, written once the turn has something to record, then its variables. */
async function persistNewSession(deps: ChatTurnDeps, turn: PreparedTurn, written: { session: boolean }): Promise<void> {
  if (written.session) return;
  // It replaces the turn's reservation and keeps its lease until the turn ends.
  await createSession(deps, turn.session, { leaseId: turn.leaseId, untilUs: deps.clock.nowUs() + msToMicros(TURN_LEASE_MS) });
  written.session = true;
  if (Object.keys(turn.requestVariables).length) await deps.variables.merge(turn.session.id, turn.requestVariables);
}

async function charge(deps: ChatTurnDeps, principal: ChatPrincipal, usage: readonly TurnUsage[]): Promise<void> {
  const totalPico = usage.reduce((sum, u) => sum + (parseUsd(u.costUsd) ?? 0n), 0n);
  await deps.billing.charge(principal.org.id, principal.app.id, billingMonth(deps.clock.nowUs()), totalPico);
}

async function recordUsage(deps: ChatTurnDeps, turn: PreparedTurn, principal: ChatPrincipal, usage: readonly TurnUsage[]): Promise<void> {
  await appendToSession(deps, { sessionId: turn.session.id, messages: [], usage });
  await charge(deps, principal, usage);
}
