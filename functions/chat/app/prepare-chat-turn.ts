/**
 * The first half of a chat turn of area B: everything that can fail with a status before the first
 * byte (app, session and its turn lease, files, credits, caps), and the context the model will see.
 */
import { type ChatRequest, newTurnMessages } from '../domain/chat-request';
import { badRequest, BusyError, DomainError, notFound } from '../../kernel/domain/errors';
import { isUuid } from '../../kernel/domain/ids';
import { argumentsObject, functionToolMarkers, toolResultProblem, type ToolStep } from '../domain/client-tools';
import { parseModelSetting, type ModelImage, type ModelMessage, type ModelToolSpec } from '../domain/model';
import { parseUsd } from '../../tenancy/domain/pricing';
import type { MessageFile, Session } from '../../conversations/domain/session';
import { microsToMs, msToMicros } from '../../kernel/domain/time';
import type { ChatModel, ChatDeps } from './chat-ports';
import type { ChatPrincipal } from '../../tenancy/app/admit-request';
import {
  attachmentNote,
  checkImageInput,
  documentToolsFor,
  loadImages,
  requireUserMessageFor,
  resolveAttachments,
  type TurnAttachment,
} from './chat-attachments';
import { newSession, requireChatSessionOfApp, type TurnMessage } from './record-session-activity';

export type ChatTurnDeps = Pick<
  ChatDeps,
  'apps' | 'sessions' | 'consumers' | 'usage' | 'files' | 'objects' | 'ids' | 'clock' | 'settings' | 'models' | 'tools' | 'variables' | 'billing'
>;

/**
 * One turn at a time per session (docs/adr/0022): a turn holds the session's lease from before it reads
 * the history until its last write, renewing it while it runs; a crashed turn's lease runs out after
 * TURN_LEASE_MS. A turn that finds the session busy waits up to TURN_LEASE_WAIT_MS, then answers 409 with
 * Retry-After, having written nothing.
 */
export const TURN_LEASE_MS = 60_000;
export const TURN_LEASE_RENEW_MS = 20_000;
export const TURN_LEASE_WAIT_MS = 3_000;
export const SESSION_BUSY_MESSAGE = 'Session busy: another turn of this chat session is in progress; retry when it has finished';

export const SESSION_SOURCE = 'API';

export interface PreparedTurn {
  readonly session: Session;
  /**
   * A first call: the session is not written until the turn has something to record, so a turn that
   * fails before its first message leaves no session behind (ADR 0020).
   */
  readonly created: boolean;
  /** The variables the request binds (written with a new session). */
  readonly requestVariables: Readonly<Record<string, string>>;
  /**
   * The turn lease this turn holds: on the session it continues, or on the reservation of the session
   * it will create (a turn continuing that id before it is recorded waits on it, then gets a 409).
   */
  readonly leaseId: string;
  /** The turn's id: its messages carry it, and the session has it open until they are all written. */
  readonly completionId: string;
  /** The version the continued session was read at under the lease (a new one's is its creation's). */
  readonly version: number;
  /** The id the turn's answer message is stored under (known before it is written: Responses item ids name it). */
  readonly answerId: string;
  readonly createdUnix: number;
  readonly model: ChatModel;
  readonly modelId: string;
  readonly context: ModelMessage[];
  readonly system: string[];
  readonly newMessages: TurnMessage[];
  readonly variables: Record<string, string>;
  /** The files this turn references, attached to the session when the turn is recorded. */
  readonly attachments: readonly TurnAttachment[];
  /** Documents of the conversation (this turn's and earlier ones), by fileId: what readPDF/readDocument may read. */
  readonly documents: ReadonlyMap<string, MessageFile>;
  readonly documentTools: readonly ModelToolSpec[];
}

/** Ids a turn takes instead of new ones: a background response names its session (when new) and answer before it runs. */
export interface FixedIds {
  readonly sessionId: string;
  readonly answerId: string;
}

/**
 * Validation from the app lookup on, and everything else that must answer with a status before streaming:
 * the app (404), the session (400 on conflicting ids, 404 when unknown or another app's), files (404),
 * credits and the app's monthly cap (402). Creates the session of a first call.
 */
export async function prepareChatTurn(
  deps: ChatTurnDeps,
  input: { principal: ChatPrincipal; request: ChatRequest; headerSessionId?: string; fixedIds?: FixedIds },
): Promise<PreparedTurn> {
  const { principal, request } = input;
  // A model naming no app is 404; a key only reaches its own app, so any other model name is unknown.
  if (request.model !== principal.app.appNameId) throw notFound(`Model not found: ${request.model}`);
  const app = principal.app;
  const sessionId = resolveSessionId(request.chatSessionId, input.headerSessionId);
  // The turn's id names its messages; a continued session has it open from the moment the lease is taken.
  const completionId = `chatcmpl-${deps.ids.uuid().replace(/-/g, '')}`;
  if (sessionId === undefined) return prepareWithSession(deps, { ...input, completionId, continued: undefined });
  // The lease is taken only on a session (or reservation) of this app; a refusal is told apart from a
  // busy session by one read. A session still being created is waited on through its first turn's
  // lease, like a busy one.
  const { leaseId, opened } = await acquireTurnLease(deps, sessionId, app.id, completionId);
  try {
    return await prepareWithSession(deps, { ...input, completionId, continued: { sessionId, leaseId, opened } });
  } catch (err) {
    await deps.sessions.releaseTurnLease(sessionId, leaseId, opened ? completionId : undefined).catch(() => undefined);
    throw err;
  }
}

/**
 * Waits up to TURN_LEASE_WAIT_MS for the session's lease; a session still busy then is a 409 with
 * Retry-After. With `appId`, only a session or reservation of that app is leased: the first refusal
 * reads the session once, and one that is missing or another app's is the 404 (never a wait).
 */
export async function acquireTurnLease(
  deps: Pick<ChatTurnDeps, 'sessions' | 'ids' | 'clock'>,
  sessionId: string,
  appId?: string,
  openTurnId?: string,
): Promise<{ leaseId: string; opened: boolean }> {
  if (appId !== undefined && !isUuid(sessionId)) throw notFound('Chat session not found');
  const leaseId = deps.ids.uuid();
  const deadline = Date.now() + TURN_LEASE_WAIT_MS;
  for (let wait = 25, first = true; ; wait = Math.min(wait * 2, 400), first = false) {
    const now = deps.clock.nowUs();
    // The first try also opens the turn; a session busy or with a turn a crash left open is leased
    // plainly after that, and the turn opened once what the crash left is taken out.
    const opening = first ? openTurnId : undefined;
    if (await deps.sessions.acquireTurnLease(sessionId, leaseId, now, now + msToMicros(TURN_LEASE_MS), appId, opening)) {
      return { leaseId, opened: opening !== undefined };
    }
    if (first && appId !== undefined) await requireChatSessionOfApp(deps, sessionId, appId);
    if (Date.now() + wait > deadline) throw new BusyError(SESSION_BUSY_MESSAGE, 1);
    await new Promise((r) => setTimeout(r, wait + Math.floor(Math.random() * wait)));
  }
}

async function prepareWithSession(
  deps: ChatTurnDeps,
  input: {
    principal: ChatPrincipal;
    request: ChatRequest;
    completionId: string;
    continued: { readonly sessionId: string; readonly leaseId: string; readonly opened: boolean } | undefined;
    fixedIds?: FixedIds;
  },
): Promise<PreparedTurn> {
  const { principal, request } = input;
  const app = principal.app;
  // Read again under the lease: what the session holds now is what this turn continues. A turn a
  // crash left half-written is taken out first (its messages were never visible), then this one opened.
  // A reservation whose first turn failed or crashed is no session. The session and its transcript come
  // in one read of its partition.
  const { completionId, continued } = input;
  const read = continued ? await deps.sessions.lookupWithMessages(continued.sessionId) : undefined;
  const found = read?.found;
  const leased = found && 'session' in found ? found : undefined;
  if (continued && leased?.session.appId !== app.id) throw notFound('Chat session not found');
  const crashed = leased?.openTurnId && leased.openTurnId !== completionId ? leased.openTurnId : undefined;
  if (crashed) await deps.sessions.discardOpenTurn(leased!.session.id, crashed);
  if (continued && !continued.opened && !(await deps.sessions.openTurn(continued.sessionId, continued.leaseId, completionId))) {
    throw new BusyError(SESSION_BUSY_MESSAGE, 1);
  }
  const existing = leased?.session;
  const zdr = app.settings.zeroDataRetention;
  const requestNew = newTurnMessages(request.messages, existing !== undefined && !zdr);
  const newMessages: TurnMessage[] = [...requestNew];
  // A Zero Data Retention session has no stored transcript: the history the client resends is the context.
  // The open turn's messages (just taken out) were never part of it.
  const history: readonly TurnMessage[] =
    existing && !zdr ? (read?.messages ?? []).filter((m) => m.turnId === undefined || (m.turnId !== crashed && m.turnId !== completionId)) : [];
  // Every tool result answers a tool call before it (a continued session's calls are stored ones).
  const problem = toolResultProblem([...history, ...newMessages].map(toolStepOf));
  if (problem) {
    const index = problem.at - history.length + (request.messages.length - requestNew.length);
    throw badRequest(`messages[${index}]: tool_call_id ${problem.id} answers no tool call of the assistant message before it`);
  }
  newMessages.forEach((m, i) => {
    const tools = functionToolMarkers(m, (id) => callNameOf([...history, ...newMessages.slice(0, i)], id));
    if (tools) newMessages[i] = { ...m, tools };
  });
  const lastUser = newMessages.map((m) => m.role).lastIndexOf('user');
  requireUserMessageFor(request.files, lastUser >= 0);
  // Every file reference reachable, images allowed and within the conversation's limit.
  const attachments = request.files.length ? await resolveAttachments(deps, { app, session: existing, refs: request.files }) : [];
  await checkImageInput(deps, { app, session: existing, attachments });

  const selection = parseModelSetting(app.settings.model);
  const model = selection ? deps.models.modelFor(selection) : undefined;
  if (!selection || !model) throw new DomainError('unavailable', `The app's model "${app.settings.model}" is not available on this platform`);

  // The credits and spend the admission read with the org and app (ChatPrincipal.billing).
  const { creditsPico: credits, monthSpendPico: spend } = principal.billing;
  if (credits !== undefined && credits <= 0n) throw new DomainError('payment_required', 'Insufficient credits: add credits to the organization');
  const cap = app.settings.monthlyUsageCapUsd !== null ? parseUsd(app.settings.monthlyUsageCapUsd) : undefined;
  if (cap !== undefined && spend >= cap) throw new DomainError('payment_required', "Usage cap reached: the app's monthly usage cap is used up");

  const images = await loadImages(deps, attachments);
  let session: Session;
  let created = false;
  if (existing) session = existing;
  else {
    const firstUser = request.messages.find((m) => m.role === 'user')?.content ?? '';
    // The title would be message text: a Zero Data Retention app keeps none.
    session = await newSession(deps, {
      appId: app.id,
      app,
      title: zdr ? '' : firstUser.slice(0, 80),
      source: SESSION_SOURCE,
      ...(input.fixedIds ? { id: input.fixedIds.sessionId } : {}),
    });
    created = true;
  }
  // The session's variables serve only the header templates of MCP connections: a turn with none given and
  // no connection to render them for reads none.
  const usesVariables = app.settings.mcpConnections.length > 0 || (request.mcpServers?.length ?? 0) > 0 || Object.keys(request.variables).length > 0;
  const variables = created || !usesVariables ? { ...request.variables } : await deps.variables.merge(session.id, request.variables);

  // The new user message carries its files; documents are read through tools, not inlined.
  const files: MessageFile[] = attachments.map(({ fileId, fileName, kind }) => ({ fileId, fileName, kind }));
  if (files.length) newMessages[lastUser] = { ...newMessages[lastUser]!, files };
  const all: TurnMessage[] = [...history, ...newMessages];
  const system = [...all.filter((m) => m.role === 'system').map((m) => m.content), ...(request.instructions !== undefined ? [request.instructions] : [])];
  const current = all.length - newMessages.length + lastUser;
  const context = contextOf(all, current, images);
  const documents = new Map(
    all
      .flatMap((m) => m.files ?? [])
      .filter((f) => f.kind !== 'image')
      .map((f) => [f.fileId, f]),
  );
  return {
    session,
    created,
    completionId,
    version: leased?.version ?? 0,
    answerId: input.fixedIds?.answerId ?? deps.ids.uuid(),
    createdUnix: Math.floor(microsToMs(deps.clock.nowUs()) / 1000),
    model,
    modelId: selection.modelId,
    context,
    system,
    newMessages,
    variables,
    requestVariables: request.variables,
    leaseId: continued?.leaseId ?? (await reserveSession(deps, session)),
    attachments,
    documents,
    documentTools: documentToolsFor([...documents.values()]),
  };
}

function toolStepOf(m: TurnMessage): ToolStep {
  if (m.role === 'assistant' && m.toolCalls?.length) return { kind: 'calls', ids: m.toolCalls.map((c) => c.id) };
  if (m.role === 'tool') return { kind: 'result', id: m.toolCallId ?? '' };
  return { kind: 'other' };
}

function callNameOf(before: readonly TurnMessage[], callId: string): string | undefined {
  for (let i = before.length - 1; i >= 0; i--) {
    const call = before[i]!.toolCalls?.find((c) => c.id === callId);
    if (call) return call.name;
  }
  return undefined;
}

/** What a model is told for a tool call its client never answered (so the conversation can go on). */
export const NO_CLIENT_RESULT = 'No result: the client did not run this tool call.';

/**
 * The conversation as the model sees it: system messages go apart, a user message carries its
 * attachments' note (and, for the current one, its images), tool calls and results keep their ids, and
 * a call its client left unanswered gets an error result before the next message.
 */
function contextOf(all: readonly TurnMessage[], current: number, images: readonly ModelImage[]): ModelMessage[] {
  const context: ModelMessage[] = [];
  let open: string[] = [];
  const close = () => {
    for (const id of open) context.push({ role: 'tool', toolCallId: id, content: NO_CLIENT_RESULT, isError: true });
    open = [];
  };
  all.forEach((m, i) => {
    if (m.role === 'system') return;
    if (m.role === 'tool') {
      open = open.filter((id) => id !== m.toolCallId);
      context.push({ role: 'tool', toolCallId: m.toolCallId ?? '', content: m.content, isError: false });
      return;
    }
    close();
    if (m.role === 'assistant') {
      const toolCalls = (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, input: argumentsObject(c.arguments) }));
      context.push({ role: 'assistant', content: m.content, ...(toolCalls.length ? { toolCalls } : {}) });
      open = toolCalls.map((c) => c.id);
      return;
    }
    const note = m.files?.length ? attachmentNote(m.files, i === current) : '';
    if (i === current && images.length) context.push({ role: 'user', content: m.content + note, images });
    else context.push({ role: 'user', content: m.content + note });
  });
  close();
  return context;
}

/** Reserves the id of the session a first turn creates, holding its lease (the last step of preparing: nothing after it can fail). */
async function reserveSession(deps: ChatTurnDeps, session: Session): Promise<string> {
  const leaseId = deps.ids.uuid();
  await deps.sessions.reserve(session.id, session.appId, { leaseId, untilUs: deps.clock.nowUs() + msToMicros(TURN_LEASE_MS) });
  return leaseId;
}

function resolveSessionId(body: string | undefined, header: string | undefined): string | undefined {
  if (body !== undefined && header !== undefined && body !== header) {
    throw new DomainError('bad_request', 'chatSessionId and the X-Chat-Session-ID header name different sessions');
  }
  return body ?? header;
}
