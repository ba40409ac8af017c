/**
 * The console's sessions and transcripts as its API answers them, and the rows the list has shown, so
 * a role that may not read transcripts still sees a session's metadata on its own page.
 */
export interface ConsoleSession {
  readonly id: string;
  readonly appId: string;
  readonly consumerId: string | null;
  readonly consumerEmail: string | null;
  readonly externalId: string | null;
  readonly source: string;
  /** The first user message's text; null for a role that may not read transcripts. */
  readonly title: string | null;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly lastActivityAt: string;
  readonly lastMessageAt: string | null;
}

/** The list's filters as typed: `from` and `to` are datetime-local values, read as UTC. */
export interface SessionFilters {
  readonly appId?: string;
  readonly from?: string;
  readonly to?: string;
  readonly externalId?: string;
  readonly consumerEmail?: string;
}

const FILTER_NAMES = ['appId', 'from', 'to', 'externalId', 'consumerEmail'] as const;

/** The filters a list address carries (`/console/sessions?appId=…`), so a reload or a shared link shows the same list. */
export function filtersOf(search: string): SessionFilters {
  const params = new URLSearchParams(search);
  return Object.fromEntries(FILTER_NAMES.flatMap((n) => (params.get(n) ? [[n, params.get(n)!]] : [])));
}

/** The query string that carries `filters` (empty when there are none). */
export function searchOf(filters: SessionFilters): string {
  const params = new URLSearchParams(FILTER_NAMES.flatMap((n) => (filters[n] ? [[n, filters[n]!]] : [])));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface ToolMarker {
  readonly id?: string;
  readonly name?: string;
  readonly type?: string;
  readonly component?: string;
  readonly success?: boolean;
}

export interface ConsoleMessage {
  readonly id: string;
  readonly role: 'user' | 'assistant' | 'system' | 'tool';
  readonly content: string;
  readonly createdAt: string;
  readonly tools?: readonly ToolMarker[];
  /** The files attached to a user message. */
  readonly files?: readonly { readonly fileId: string; readonly fileName: string; readonly kind: 'image' | 'pdf' | 'docx' }[];
}

export interface Transcript {
  readonly session: ConsoleSession & { readonly queryParams: readonly { readonly name: string; readonly value: string }[] };
  /** The app keeps no transcripts (Zero Data Retention): `messages` is empty. */
  readonly zdr: boolean;
  readonly messages: readonly ConsoleMessage[];
}

export interface Tombstone {
  readonly resourceType: 'session' | 'consumer';
  readonly resourceId: string;
  readonly cause: string;
}

const shown = new Map<string, ConsoleSession>();

/** Remembers the rows a list page showed (a page's worth at a time; the map is cleared past a few pages). */
export function rememberSessions(rows: readonly ConsoleSession[]): void {
  if (shown.size > 500) shown.clear();
  for (const r of rows) shown.set(r.id, r);
}

export const shownSession = (id: string): ConsoleSession | undefined => shown.get(id);

export const forgetSession = (id: string): boolean => shown.delete(id);

/** A timestamp as a short UTC time, e.g. "2026-11-29 00:45 UTC". */
export const utcTime = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** How a session is named: its title for a role that reads it, else its id's first characters. */
export const sessionName = (s: ConsoleSession): string => s.title || `Session ${s.id.slice(0, 8)}`;
