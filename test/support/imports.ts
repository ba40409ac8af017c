/** Seeding a test platform through the admin import route: the same path historical data takes. */
import { randomUUID } from 'node:crypto';
import type { TestPlatform } from './platform';

export interface SeedSession {
  readonly id?: string;
  readonly startedAt?: string;
  /** `undefined`: no consumer; `null`: a new anonymous consumer; a string: the app's consumer with that email. */
  readonly email?: string | null;
  /** Message times (ISO); one message each. */
  readonly messages?: readonly string[];
}

/** Imports the sessions (one JSONL line each) and returns their ids in order. */
export async function seedSessions(p: TestPlatform, appId: string, sessions: readonly SeedSession[]): Promise<string[]> {
  const lines = sessions.map((s) =>
    JSON.stringify({
      session: { id: s.id ?? randomUUID(), title: 'seeded', startedAt: s.startedAt ?? '2026-01-01T00:00:00Z' },
      ...(s.email !== undefined ? { consumer: { email: s.email } } : {}),
      messages: (s.messages ?? []).map((createdAt, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}`, createdAt })),
    }),
  );
  const ids: string[] = [];
  // The route takes a bounded number of lines per import (200 at the time of writing).
  for (let i = 0; i < lines.length; i += 100) {
    const res = await p.call('POST', `/admin/v1/apps/${appId}/imports`, {
      token: p.adminToken,
      headers: { 'Content-Type': 'application/x-ndjson' },
      body: lines.slice(i, i + 100).join('\n'),
    });
    if (res.status !== 201) throw new Error(`seed import failed: ${res.status} ${res.text}`);
    ids.push(...(res.body.data.sessionIds as string[]));
  }
  return ids;
}
