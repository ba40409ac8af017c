/**
 * Chat sessions and their messages as the platform stores them.
 *
 * `last_activity_at` = GREATEST(COALESCE(last_message_at, started_at), touch clock): every persisted
 * change first advances the touch clock (docs/design.md §3, "touch first"), so the export's watermark moves
 * before any dependent item becomes visible.
 */
import type { Micros } from '../../kernel/domain/time';

export interface QueryParam {
  readonly name: string;
  readonly value: string;
}

/** Query parameters that steer the product itself and never reach `query_params`. */
export const CONTROL_QUERY_PARAMS: ReadonlySet<string> = new Set(['bt', 'session', 'share']);

export function exportableQueryParams(params: readonly QueryParam[]): QueryParam[] {
  return params.filter((p) => !CONTROL_QUERY_PARAMS.has(p.name));
}

export interface Session {
  readonly id: string;
  readonly orgId: string;
  readonly appId: string;
  readonly consumerId: string | null;
  /** Copied from the consumer at creation, so an export page is one query. */
  readonly consumerEmail: string | null;
  readonly title: string;
  readonly source: string;
  readonly externalId: string | null;
  readonly queryParams: readonly QueryParam[];
  readonly startedAtUs: Micros;
  readonly lastMessageAtUs: Micros | null;
  readonly touchedAtUs: Micros;
}

export function lastActivityOf(s: Pick<Session, 'startedAtUs' | 'lastMessageAtUs' | 'touchedAtUs'>): Micros {
  return Math.max(s.lastMessageAtUs ?? s.startedAtUs, s.touchedAtUs);
}

/** `ended_at` of the list form: the last message, or the start of a session that never had one. */
export function endedAtOf(s: Pick<Session, 'startedAtUs' | 'lastMessageAtUs'>): Micros {
  return s.lastMessageAtUs ?? s.startedAtUs;
}

/** Marker of a tool call or rendered component on a message; heavy blobs never enter it. */
export interface ToolMarker {
  readonly id?: string;
  readonly name?: string;
  readonly type?: string;
  readonly component?: string;
  readonly success?: boolean;
}

/** `tool`: the result of a client's function tool, answering a tool call of the assistant message before it. */
export type MessageRole = 'user' | 'assistant' | 'system' | 'tool';

/** A call of a client's function tool the model made, kept so the conversation can be replayed to the model. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as the model wrote them: a JSON text. */
  readonly arguments: string;
}

/** A file attached to a user message (chat `files`), kept so later turns can still read documents. */
export interface MessageFile {
  readonly fileId: string;
  readonly fileName: string;
  readonly kind: 'image' | 'pdf' | 'docx';
}

export interface Message {
  readonly id: string;
  readonly sessionId: string;
  readonly role: MessageRole;
  readonly content: string;
  readonly createdAtUs: Micros;
  readonly tools?: readonly ToolMarker[];
  readonly files?: readonly MessageFile[];
  /** An assistant message that handed function tool calls to the client: the calls (never exported; `tools` marks them). */
  readonly toolCalls?: readonly ToolCall[];
  /** A `tool` message: the call it answers. */
  readonly toolCallId?: string;
  /**
   * The chat turn that wrote it. A turn's messages stay hidden while the session names it as its open
   * turn, so the export shows a turn whole or not at all (docs/adr/0022).
   */
  readonly turnId?: string;
}
