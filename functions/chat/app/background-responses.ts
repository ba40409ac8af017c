/**
 * Background responses of the Responses API (docs/adr/0051): the request is answered at once with
 * status `queued`, and a worker runs it as a chat turn. The stored response is the run's state; each
 * change is a conditional write on its status, so a run is claimed once, a cancel wins over a run
 * that has not finished, and a redelivered message never runs a turn twice: a worker that finds the
 * run already `in_progress` finishes it from what the turn recorded (the answer message, whose id the
 * response names) or, when nothing was recorded and the earlier worker's hold has lapsed, fails it.
 */
import type { Message } from '../../conversations/domain/session';
import { DomainError, notFound } from '../../kernel/domain/errors';
import { msToMicros } from '../../kernel/domain/time';
import type { Telemetry } from '../../kernel/app/kernel-ports';
import type { ChatPrincipal } from '../../tenancy/app/admit-request';
import type { ChatAdmissionReader } from '../../tenancy/app/tenancy-ports';
import { billingMonth } from '../../tenancy/domain/pricing';
import type { ChatRequest } from '../domain/chat-request';
import type { ResponsesRequest } from '../domain/responses-request';
import { responseObject, type ResponseStatus, type TurnRef } from '../domain/response-object';
import type { ChatDeps, ResponseRunMessage, ResponseRunQueue, StoredResponse } from './chat-ports';
import { prepareChatTurn, type ChatTurnDeps } from './prepare-chat-turn';
import { requireChatSessionOfApp } from './record-session-activity';
import { runChatTurn, type TurnResult } from './run-chat-turn';
import { isTerminal } from './stored-responses';

/** What a worker needs to run the response: the turn's request as the route read it. */
export interface BackgroundJob {
  readonly request: ChatRequest;
  readonly parsed: ResponsesRequest;
  readonly keyId: string;
  readonly headerSessionId?: string;
}

type ResponseState = Parameters<typeof responseObject>[2];

export type BackgroundDeps = ChatTurnDeps &
  Pick<ChatDeps, 'responses'> &
  Telemetry & { readonly responseRuns: ResponseRunQueue; readonly chatAdmission: ChatAdmissionReader };

/** How long a worker holds a run: the function's 300 s timeout and a margin. A hold that lapsed is a worker that died. */
export const RUN_HOLD_MS = 330_000;
/** A message whose response is not stored yet is sent again this long (its POST may still be writing it), then dropped. */
const UNWRITTEN_GRACE_MS = 60_000;
/** How much later such a message comes back: soon, rather than after the queue's visibility timeout. */
const UNWRITTEN_RETRY_SECONDS = 2;

const unixOf = (us: number) => Math.floor(us / 1_000_000);

/**
 * Answers a background request: its ids chosen now (a continued session must be the app's: 404 now),
 * the message sent, then the response stored as `queued` (a message whose response never got written
 * is dropped by the worker after a grace period).
 */
export async function startBackgroundResponse(
  deps: BackgroundDeps,
  input: { principal: ChatPrincipal; parsed: ResponsesRequest; request: ChatRequest; headerSessionId?: string },
): Promise<Readonly<Record<string, unknown>>> {
  const { principal, parsed, request } = input;
  const continued = request.chatSessionId ?? input.headerSessionId;
  if (continued !== undefined) await requireChatSessionOfApp(deps, continued, principal.app.id);
  const job: BackgroundJob = {
    request,
    parsed,
    keyId: principal.keyId,
    ...(input.headerSessionId !== undefined ? { headerSessionId: input.headerSessionId } : {}),
  };
  const now = deps.clock.nowUs();
  const ref: TurnRef = { session: { id: continued ?? deps.ids.uuid() }, answerId: deps.ids.uuid(), createdUnix: unixOf(now) };
  const body = responseObject(ref, parsed, { status: 'queued' });
  await deps.responseRuns.send({ sessionId: ref.session.id, answerId: ref.answerId, queuedAtUs: now });
  await deps.responses.put({
    sessionId: ref.session.id,
    answerId: ref.answerId,
    appId: principal.app.id,
    turnId: null,
    createdAtUs: now,
    status: 'queued',
    body,
    job,
  });
  return body;
}

/** One delivery of a run's message. Throws to have it delivered again (a response not written yet, a run held elsewhere). */
export async function runBackgroundResponse(deps: BackgroundDeps, message: ResponseRunMessage): Promise<void> {
  const now = deps.clock.nowUs();
  const stored = await deps.responses.get(message.sessionId, message.answerId);
  if (!stored) {
    // Its POST sends the message before it stores the response: sent again shortly, not failed.
    if (now - message.queuedAtUs < msToMicros(UNWRITTEN_GRACE_MS)) await deps.responseRuns.send(message, UNWRITTEN_RETRY_SECONDS);
    return;
  }
  if (isTerminal(stored.status) || stored.job === undefined) return;
  const job = stored.job as BackgroundJob;
  const ref: TurnRef = { session: { id: stored.sessionId }, answerId: stored.answerId, createdUnix: unixOf(stored.createdAtUs) };
  if (stored.status === 'in_progress') return resumeInterrupted(deps, stored, { job, ref });
  const claimed = await deps.responses.transition(stored.sessionId, stored.answerId, ['queued'], {
    status: 'in_progress',
    body: responseObject(ref, job.parsed, { status: 'in_progress' }),
    runUntilUs: now + msToMicros(RUN_HOLD_MS),
  });
  if (!claimed) return; // cancelled meanwhile, or another delivery claimed it
  const finish = (status: ResponseStatus, state: ResponseState, turnId?: string) =>
    deps.responses.transition(stored.sessionId, stored.answerId, ['in_progress'], {
      status,
      body: responseObject(ref, job.parsed, state),
      dropJob: true,
      ...(turnId !== undefined ? { turnId } : {}),
    });
  let result: TurnResult;
  let turnId: string;
  try {
    const principal = await principalOf(deps, stored.appId, job.keyId);
    const turnInput = { principal, request: job.request };
    const turn = await prepareChatTurn(deps, {
      ...turnInput,
      ...(job.headerSessionId !== undefined ? { headerSessionId: job.headerSessionId } : {}),
      fixedIds: { sessionId: stored.sessionId, answerId: stored.answerId },
    });
    turnId = turn.completionId;
    const run = runChatTurn(deps, turn, turnInput);
    let step = await run.next();
    while (!step.done) step = await run.next();
    result = step.value;
  } catch (err) {
    if (!(err instanceof DomainError)) deps.logger.error('a background response failed', err as Error);
    const error =
      err instanceof DomainError ? { code: err.code, message: err.message } : { code: 'server_error', message: 'The run failed; send the request again' };
    await finish('failed', { status: 'failed', error });
    return;
  }
  // A cancel that came while the turn ran stays: the turn is recorded and billed as it ran.
  await finish('completed', { status: 'completed', result, completedAt: unixOf(deps.clock.nowUs()) }, turnId);
}

/**
 * A run found `in_progress`: an earlier delivery claimed it. Its turn recorded the answer: finished
 * from it (the usage is in the export's usage rows, not repeated here). Nothing recorded and the
 * earlier worker's hold lapsed: it died, and the run fails without running the turn again.
 */
async function resumeInterrupted(deps: BackgroundDeps, stored: StoredResponse, run: { readonly job: BackgroundJob; readonly ref: TurnRef }): Promise<void> {
  const messages = await deps.sessions.listMessages(stored.sessionId);
  const answer = messages.find((m) => m.id === stored.answerId && m.role === 'assistant');
  const change = answer
    ? {
        status: 'completed' as const,
        state: { status: 'completed' as const, result: resultOf(answer), completedAt: unixOf(answer.createdAtUs) },
        turnId: answer.turnId,
      }
    : undefined;
  if (!change && (stored.runUntilUs ?? 0) > deps.clock.nowUs()) throw new Error('the run is held by another worker');
  const state = change?.state ?? {
    status: 'failed' as const,
    error: { code: 'server_error', message: 'The run was interrupted before its turn was recorded; nothing was recorded or billed. Send the request again' },
  };
  await deps.responses.transition(stored.sessionId, stored.answerId, ['in_progress'], {
    status: state.status,
    body: responseObject(run.ref, run.job.parsed, state),
    dropJob: true,
    ...(change?.turnId !== undefined ? { turnId: change.turnId } : {}),
  });
}

/** The answer a crashed run recorded, as a turn's result (its token counts are in the usage rows). */
function resultOf(answer: Message): TurnResult {
  const toolCalls = answer.toolCalls ?? [];
  return {
    text: answer.content,
    toolCalls,
    stopReason: toolCalls.length ? 'tool_use' : 'end_turn',
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
  };
}

/** The key's org and app as they are now: a run of a deleted app or a free org fails as its turn would. */
async function principalOf(deps: BackgroundDeps, appId: string, keyId: string): Promise<ChatPrincipal> {
  const app = await deps.apps.get(appId);
  if (!app || app.deletedAtUs !== undefined) throw notFound('App not found');
  // Read when the run starts, not when it was queued: the turn is refused on the credits and spend of now.
  const { org, billing } = await deps.chatAdmission.read({ orgId: app.orgId, appId, month: billingMonth(deps.clock.nowUs()) });
  if (!org) throw notFound('App not found');
  return { keyId, org, app, billing };
}
