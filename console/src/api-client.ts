/**
 * The console's one way to call its backend: same origin, the session cookie sent by the browser,
 * and `X-Console-Request: 1` on every call that changes something (the backend refuses them without it).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function callApi<T>(path: string, init: { readonly method?: string } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET' && method !== 'HEAD') headers['X-Console-Request'] = '1';
  const res = await fetch(path, { method, headers, credentials: 'same-origin' });
  if (!res.ok) {
    const body = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
    throw new ApiError(res.status, body?.error?.message ?? `The console's backend answered ${res.status}`);
  }
  return (await res.json()) as T;
}

export interface OrgMembership {
  readonly orgId: string;
  readonly name: string;
  readonly role: string;
  readonly permissions: readonly string[];
}

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

export const orgPath = (orgId: string, rest: string): string => `/console/v1/orgs/${encodeURIComponent(orgId)}/${rest}`;
