/**
 * Calls to area C's checkout routes as an ACP client makes them: `API-Version` on every request and a
 * fresh `Idempotency-Key` on every POST (both required, docs/adr/0034). A test that is about one of
 * these headers sets it in `headers` (its value wins) or leaves it out with `omit`.
 */
import { randomUUID } from 'node:crypto';
import { ACP_VERSION } from '../../functions/acp/domain/discovery';
import type { TestPlatform, TestResponse } from './platform';

export { ACP_VERSION };

export interface AcpCallInit {
  readonly token?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Required headers to leave out, by name (`API-Version`, `Idempotency-Key`). */
  readonly omit?: readonly string[];
}

/** The headers ACP requires of a request with this method, under `headers` (which win) and without `omit`. */
export function acpHeaders(method: string, headers: Record<string, string> = {}, omit: readonly string[] = []): Record<string, string> {
  const given = new Set(Object.keys(headers).map((k) => k.toLowerCase()));
  const left = new Set(omit.map((k) => k.toLowerCase()));
  const required: Record<string, string> = { 'API-Version': ACP_VERSION, ...(method === 'POST' ? { 'Idempotency-Key': randomUUID() } : {}) };
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(required)) if (!given.has(name.toLowerCase()) && !left.has(name.toLowerCase())) out[name] = value;
  return { ...out, ...headers };
}

/** `p.call` with ACP's required headers. */
export function acpCall(p: TestPlatform, method: string, path: string, init: AcpCallInit = {}): Promise<TestResponse> {
  const { omit, headers, ...rest } = init;
  return p.call(method, path, { ...rest, headers: acpHeaders(method, headers, omit) });
}
