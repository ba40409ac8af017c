/**
 * Reads the export through ExportApi: the paged lists (following `next_cursor`) and the session
 * transcripts, refusing a response whose shape the sync rules cannot rely on.
 */
import { ExportApiError, type ExportApi } from './export-api';

interface Page<T> {
  readonly data: T[];
  readonly hasMore: boolean;
  readonly nextCursor: string | undefined;
}

function asPage<T>(body: unknown, path: string): Page<T> {
  const b = body as { data?: unknown; pagination?: { next_cursor?: unknown; has_more?: unknown } } | null;
  if (!b || !Array.isArray(b.data) || typeof b.pagination?.has_more !== 'boolean') {
    throw new ExportApiError(200, path, body, `GET ${path}: unexpected response shape`);
  }
  const next = b.pagination.next_cursor;
  return { data: b.data as T[], hasMore: b.pagination.has_more, nextCursor: typeof next === 'string' ? next : undefined };
}

/**
 * Follows one list from its first page (no cursor: each run starts fresh, a stale cursor is never
 * resumed) until `has_more` is false, or until `onPage` answers false.
 */
export async function pages<T>(
  api: ExportApi,
  path: string,
  query: Record<string, string | undefined>,
  onPage: (rows: T[]) => Promise<boolean | undefined>,
): Promise<number> {
  let cursor: string | undefined;
  const used = new Set<string>();
  for (let n = 1; ; n++) {
    const page = asPage<T>(await api.get(path, { ...query, ...(cursor !== undefined ? { cursor } : {}) }), path);
    if ((await onPage(page.data)) === false || !page.hasMore) return n;
    if (page.nextCursor === undefined || used.has(page.nextCursor)) {
      throw new ExportApiError(200, path, page, `GET ${path}: has_more without a new next_cursor`);
    }
    used.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

export interface Transcript {
  readonly messages: unknown[];
  readonly zdr: boolean;
}

export async function fetchTranscript(api: ExportApi, sessionId: string): Promise<Transcript | null> {
  const path = `/api/v1/org/sessions/${encodeURIComponent(sessionId)}/messages`;
  const body = (await api.get(path, { include: 'tool_details' }, { notFoundAsNull: true })) as { data?: { messages?: unknown; zdr?: unknown } } | null;
  if (body === null) return null;
  if (!body.data || !Array.isArray(body.data.messages)) throw new ExportApiError(200, path, body, `GET ${path}: unexpected response shape`);
  return { messages: body.data.messages, zdr: body.data.zdr === true };
}
