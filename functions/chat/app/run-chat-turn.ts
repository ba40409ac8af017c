/**
 * The second half of a chat turn of area B (prepared by prepare-chat-turn.ts): runs the model with the
 * app's MCP tools and the built-in document tools until it answers, then records the turn (messages,
 * tool markers, one usage row per model call, the charge) touch first.
 */
import { AnswerLimit } from '../domain/answer-limit';
import type { ChatRequest } from '../domain/chat-request';
import type { AnsweredTurn } from '../domain/response-object';
import type { RequestMcpServer } from '../domain/responses-tools';
import type { ModelMessage, ModelRequest, ModelResponse, ModelToolCall } from '../domain/model';
import { functionToolMarkers } from '../domain/client-tools';
import { answerProblems, conformingText, repairRequest } from '../domain/structured-output';
import { DomainError } from '../../kernel/domain/errors';
import { billingMonth, costPicoUsd, formatUsd, parseUsd } from '../../tenancy/domain/pricing';
import type { Session, ToolCall, ToolMarker } from '../../conversations/domain/session';
import { msToMicros } from '../../kernel/domain/time';
import type { ConnectedTool, ListedTools, ToolCallResult, ToolConnection } from './chat-ports';
import type { ChatPrincipal } from '../../tenancy/app/admit-request';
import { isDocumentTool, readDocumentTool } from './chat-attachments';
import { TURN_LEASE_MS, TURN_LEASE_RENEW_MS, type ChatTurnDeps, type PreparedTurn } from './prepare-chat-turn';
import { createSession, recordTurn, type HeldTurn, type TurnMessage, type TurnUsage } from './record-session-activity';

/** Model calls one turn may make: tool rounds plus the final answer. */
export const MAX_MODEL_CALLS = 6;
export const USAGE_SOURCE = 'api';

export type TurnEvent = { readonly type: 'text'; readonly delta: string };

/** A turn's answer: what every wire shape presents (domain/response-object.ts defines it). */
export type TurnResult = AnsweredTurn;

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
  const written: Written = { held: turn.created ? undefined : heldOf(turn, turn.session, turn.version), items: false, released: false };
  try {
    return yield* runTurn(deps, turn, input, written);
  } finally {
    clearInterval(renew);
    if (!written.released) {
      // A first turn that failed before writing its session takes its reservation back. A turn that wrote
      // nothing closes the turn it opened; one that wrote leaves it open, for the next turn to take out.
      const unreserved = !written.held && (await deps.sessions.unreserve(turn.session.id, leaseId).catch(() => false));
      if (!unreserved) await deps.sessions.releaseTurnLease(turn.session.id, leaseId, written.items ? undefined : turn.completionId).catch(() => undefined);
    }
  }
}

/** What a turn has written so far: its session (a first turn's, once created), its items, its lease given back. */
interface Written {
  held: HeldTurn | undefined;
  items: boolean;
  released: boolean;
}

function heldOf(turn: PreparedTurn, session: Session, version: number): HeldTurn {
  return { session, version, leaseId: turn.leaseId, turnId: turn.completionId };
}

async function* runTurn(
  deps: ChatTurnDeps,
  turn: PreparedTurn,
  input: { principal: ChatPrincipal; request: ChatRequest },
  written: Written,
): AsyncGenerator<TurnEvent, TurnResult> {
  const { app } = input.principal;
  const { request } = input;
  // The app's connections, then the servers the request names (checked before the turn: chat/app/request-mcp-servers.ts).
  const requested = request.mcpServers ?? [];
  const connections: ToolConnection[] = [...app.settings.mcpConnections, ...requested.map(requestConnection)];
  // A tool connection that is down, too slow or failing is unavailable for this turn (a marker with
  // success: false says so in the export); the model answers with what is left.
  const listed: ListedTools = connections.length ? await deps.tools.listTools(connections, turn.variables) : { tools: [], unavailable: [] };
  // The built-in document tools take precedence over an MCP tool of the same name, and a client's
  // function tool over an MCP tool of its name (the client asked for it in this very request).
  const clientTools = request.toolChoice.type === 'none' ? [] : request.tools;
  const isClientCall = (call: ModelToolCall) => clientTools.some((t) => t.name === call.name);
  const tools = listed.tools.filter(
    (t) => !turn.documentTools.some((d) => d.name === t.spec.name) && !clientTools.some((c) => c.name === t.spec.name) && allowedByRequest(requested, t),
  );
  // The client's tools first: `tool_choice: "required"` is the client's request for one of them.
  const clientSpecs = clientTools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters }));
  const toolSpecs = [...clientSpecs, ...turn.documentTools, ...tools.map((t) => t.spec)];
  // `max_tool_calls`: the platform runs at most this many of its tools' calls; then only the client's tools are offered.
  let platformCallsLeft = request.maxToolCalls ?? Number.POSITIVE_INFINITY;
  // A forced tool that no connection offered (an mcp tool_choice by name) leaves the choice to the model.
  const firstChoice =
    request.toolChoice.type === 'tool' && !toolSpecs.some((t) => t.name === (request.toolChoice as { name: string }).name)
      ? { type: 'auto' as const }
      : request.toolChoice;
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
  // A structured answer is checked before the client sees any of it: a stream sends it whole, once checked.
  const structured = request.responseFormat.type !== 'text';
  let text = '';
  let response: ModelResponse | undefined;
  let handedBack: readonly ModelToolCall[] = [];
  let reasoningTokens = 0;
  const record = (r: ModelResponse) => {
    reasoningTokens += r.reasoningTokens ?? 0;
    usage.push({ model: turn.modelId, source: USAGE_SOURCE, ...r.usage, costUsd: formatUsd(costPicoUsd(turn.modelId, r.usage)) });
  };
  try {
    for (let call = 0; call < MAX_MODEL_CALLS; call++) {
      const last = call === MAX_MODEL_CALLS - 1;
      const modelRequest: ModelRequest = {
        modelId: turn.modelId,
        system: turn.system,
        messages,
        tools: last ? [] : platformCallsLeft > 0 ? toolSpecs : clientSpecs,
        options: request.options,
        // A forced choice holds for the first call; once a tool ran the model may answer.
        toolChoice: call === 0 && firstChoice.type !== 'none' ? firstChoice : { type: 'auto' },
        parallelToolCalls: request.parallelToolCalls,
        responseFormat: request.responseFormat,
      };
      let roundText = '';
      if (request.stream && !structured) {
        for await (const event of turn.model.stream(modelRequest)) {
          if (event.type === 'done') response = event.response;
          else {
            const delta = limit.take(event.delta);
            roundText += delta;
            if (delta) yield { type: 'text', delta };
          }
        }
      } else {
        response = await turn.model.converse(modelRequest);
        roundText = limit.take(response.text);
      }
      text = structured ? roundText : text + roundText;
      const r = response!;
      record(r);
      if (limit.reached || r.toolCalls.length === 0) break;
      // parallel_tool_calls: false keeps the model's first call; the rest were never made.
      const calls = request.parallelToolCalls ? r.toolCalls : r.toolCalls.slice(0, 1);
      messages.push({ role: 'assistant', content: r.text, toolCalls: calls });
      for (const toolCall of calls.filter((c) => !isClientCall(c))) {
        const result =
          platformCallsLeft-- > 0
            ? await callTurnTool(deps, turn, { tools, connections }, toolCall)
            : { content: 'Not run: the request allows no more tool calls (max_tool_calls)', isError: true };
        markers.push({ id: toolCall.id, name: toolCall.name, type: 'tool', success: !result.isError });
        messages.push({ role: 'tool', toolCallId: toolCall.id, content: result.content, isError: result.isError });
      }
      // The client's own tools are the client's to run: the turn ends with their calls.
      handedBack = calls.filter(isClientCall);
      if (handedBack.length) break;
    }
    if (structured && handedBack.length === 0 && response!.stopReason !== 'max_tokens' && !limit.reached) {
      text = yield* checkedAnswer(turn, { request, messages, text, record });
    } else if (structured && request.stream && text) {
      // Not a final answer to check (cut short, or beside tool calls): streamed as it is, as it is stored.
      yield { type: 'text', delta: text };
    }
  } catch (err) {
    // The model calls that completed before the failure were made and cost money: their usage rows
    // and charge are recorded even though the turn itself (its messages) is not.
    if (usage.length > 0) {
      const held = await persistNewSession(deps, turn, written);
      await recordWithCharge(deps, held, written, { principal: input.principal, messages: [], usage });
    }
    throw err;
  }
  const final = response!;
  // The arguments as the model wrote them, when its adapter kept them (an unparsable text stays as it was).
  const toolCalls: ToolCall[] = handedBack.map((c) => ({ id: c.id, name: c.name, arguments: c.inputText ?? JSON.stringify(c.input) }));
  const held = await persistNewSession(deps, turn, written);
  // Before the messages: a crash in between leaves files referenced by the session (removed with it).
  if (turn.attachments.length)
    await deps.files.attach(
      turn.session.id,
      turn.attachments.map((a) => a.file),
      deps.clock.nowUs(),
    );
  await recordWithCharge(deps, held, written, {
    principal: input.principal,
    messages: [
      ...turn.newMessages,
      {
        id: turn.answerId,
        role: 'assistant',
        content: text,
        ...(markers.length || toolCalls.length
          ? { tools: [...markers, ...(functionToolMarkers({ role: 'assistant', toolCalls }, () => undefined) ?? [])] }
          : {}),
        ...(toolCalls.length ? { toolCalls } : {}),
      },
    ],
    usage,
  });
  const promptTokens = usage.reduce((s, u) => s + u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens, 0);
  const completionTokens = usage.reduce((s, u) => s + u.outputTokens, 0);
  const cachedTokens = usage.reduce((s, u) => s + u.cacheReadInputTokens, 0);
  const stopReason = toolCalls.length ? 'tool_use' : limit.reached ? 'max_tokens' : final.stopReason === 'tool_use' ? 'end_turn' : final.stopReason;
  return { text, toolCalls, stopReason, promptTokens, completionTokens, cachedTokens, reasoningTokens };
}

/**
 * A structured answer, checked against `response_format`: a model whose answer does not conform is told
 * what is wrong and answers once more; a second miss fails the turn (its model calls stay billed). A
 * streamed turn gets the conforming answer as one delta.
 */
async function* checkedAnswer(
  turn: PreparedTurn,
  input: { request: ChatRequest; messages: ModelMessage[]; text: string; record: (r: ModelResponse) => void },
): AsyncGenerator<TurnEvent, string> {
  const format = input.request.responseFormat;
  let text = input.text;
  let problems = answerProblems(format, text);
  if (problems.length) {
    const repaired = await turn.model.converse({
      modelId: turn.modelId,
      system: turn.system,
      messages: [...input.messages, { role: 'assistant', content: text }, { role: 'user', content: repairRequest(problems) }],
      tools: [],
      options: input.request.options,
      responseFormat: format,
    });
    input.record(repaired);
    // Bounded like any answer (a cut answer is no valid JSON, and so a miss).
    text = new AnswerLimit().take(repaired.text);
    problems = answerProblems(format, text);
    if (problems.length) {
      throw new DomainError('model_failed', `The model's answer did not match response_format after one repair attempt: ${problems.join('; ')}`);
    }
  }
  text = conformingText(format, text);
  if (input.request.stream && text) yield { type: 'text', delta: text };
  return text;
}

/** A server a request names, as a connection (its name apart from the app's connections'). */
function requestConnection(server: RequestMcpServer): ToolConnection {
  return { name: `mcp:${server.label}`, url: server.url, headers: server.headers, ...(server.addresses ? { addresses: server.addresses } : {}) };
}

/** A request server's `allowed_tools` keeps only those of its tools. */
function allowedByRequest(requested: readonly RequestMcpServer[], tool: ConnectedTool): boolean {
  const server = requested.find((s) => `mcp:${s.label}` === tool.connection);
  return !server?.allowedTools || server.allowedTools.includes(tool.spec.name);
}

/** One tool call of the model: a built-in document tool or the app's MCP tool; a failure is the model's to read. */
async function callTurnTool(
  deps: ChatTurnDeps,
  turn: PreparedTurn,
  { tools, connections }: { readonly tools: readonly ConnectedTool[]; readonly connections: readonly ToolConnection[] },
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

/**
 * The session of a first call, written once the turn has something to record (touched now, its turn
 * open, its lease kept), then its variables; a continued session is held as the turn read it.
 */
async function persistNewSession(deps: ChatTurnDeps, turn: PreparedTurn, written: Written): Promise<HeldTurn> {
  if (written.held) return written.held;
  const session = { ...turn.session, touchedAtUs: deps.clock.nowUs() };
  const lease = { leaseId: turn.leaseId, untilUs: deps.clock.nowUs() + msToMicros(TURN_LEASE_MS), openTurnId: turn.completionId };
  written.held = heldOf(turn, session, await createSession(deps, session, lease));
  if (Object.keys(turn.requestVariables).length) await deps.variables.merge(turn.session.id, turn.requestVariables);
  return written.held;
}

/** The turn's records, then its charge beside the write that closes the turn (a charge always has its usage rows). */
async function recordWithCharge(
  deps: ChatTurnDeps,
  held: HeldTurn,
  written: Written,
  input: { principal: ChatPrincipal; messages: readonly TurnMessage[]; usage: readonly TurnUsage[] },
): Promise<void> {
  written.items = true;
  const { org, app } = input.principal;
  const totalPico = input.usage.reduce((sum, u) => sum + (parseUsd(u.costUsd) ?? 0n), 0n);
  const charge = () => deps.billing.charge(org.id, app.id, billingMonth(deps.clock.nowUs()), totalPico);
  const recorded = await recordTurn(deps, held, { app, messages: input.messages, usage: input.usage, besideClose: charge });
  written.released = recorded.released;
}
