/**
 * The console's one way to call its backend: same origin, the session cookie sent by the browser,
 * and `X-Console-Request: 1` on every call that changes something (the backend refuses them without it).
 * A refusal becomes an `ApiError` whose `advice` says what happened and what to do, never a raw status.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }

  /** What happened and what to do, in a sentence or two, for a person reading the page. */
  get advice(): string {
    switch (true) {
      case this.status === 0:
        return 'The console could not reach its server. Check your connection, then try again.';
      case this.status === 401:
        return 'Your session has ended. Sign in again to go on.';
      case this.status === 403:
        return `${this.message}. Your role does not allow this; an owner or admin can change your role.`;
      case this.status === 404:
        return `${this.message}. It may have been deleted meanwhile: reload the page.`;
      case this.status === 409:
        return `${this.message}. Reload the page to see the current state, then try again.`;
      case this.status === 429:
        return 'Too many requests in a short time. Wait a minute, then try again.';
      case this.status >= 500:
        return 'The server could not finish this. Nothing was changed that you cannot see; try again in a moment.';
      default:
        return `${this.message}. Correct it and try again.`;
    }
  }
}

export type Query = Readonly<Record<string, string | number | undefined>>;

export interface CallOptions {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly body?: unknown;
  readonly query?: Query;
}

/** `path` with the defined entries of `query` as its query string. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function callApi<T>(path: string, options: CallOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-Console-Request'] = '1';
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(withQuery(path, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  }).catch(() => undefined);
  if (!res) throw new ApiError(0, 'No answer from the server');
  if (!res.ok) {
    const body = (await res.json().catch(() => undefined)) as { error?: { message?: string; code?: string } } | undefined;
    throw new ApiError(res.status, (body?.error?.message ?? `The server refused the request (${res.status})`).replace(/\.$/, ''), body?.error?.code);
  }
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** The advice for any failure a page catches: an `ApiError`'s, or a generic one. */
export const adviceOf = (err: unknown): string => (err instanceof ApiError ? err.advice : 'Something went wrong in the page. Reload it and try again.');

export interface OrgMembership {
  readonly orgId: string;
  readonly name: string;
  readonly role: string;
  readonly permissions: readonly string[];
}

/** Whether the member's role has `permission` (the server's table, sent with the session). */
export const can = (org: OrgMembership, permission: string): boolean => org.permissions.includes(permission);

export interface SessionView {
  readonly person: { readonly email: string | null };
  readonly orgs: readonly OrgMembership[];
}

export interface PlanView {
  readonly plan: string;
  readonly creditsUsd: string | null;
}

export interface UsageTotals {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadInputTokens: number;
  readonly cacheCreationInputTokens: number;
  readonly costUsd: string;
}

export interface UsageView {
  readonly from: string;
  readonly to: string;
  readonly asOf: string | null;
  readonly totals: UsageTotals;
  readonly days: readonly { readonly date: string; readonly totals: UsageTotals }[];
}

export const orgPath = (orgId: string, rest = ''): string => `/console/v1/orgs/${encodeURIComponent(orgId)}${rest ? `/${rest}` : ''}`;
