/** Publishing release-note periods through the admin API, as the area D tests do. */
import { expect } from 'vitest';
import type { TestPlatform } from './platform';

/** Publishes a period written as markdown with its front matter; answers the published period. */
export async function publishMarkdown(p: TestPlatform, text: string): Promise<{ id: string } & Record<string, unknown>> {
  const res = await p.call('POST', '/admin/v1/release-notes/periods', { token: p.adminToken, body: text, headers: { 'Content-Type': 'text/markdown' } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** A first half of October with a feature and a fix: the period the area D tests publish first. */
export const OCTOBER_PERIOD = [
  '---',
  'periodStart: 2026-10-01T00:00:00Z',
  'periodEnd: 2026-10-15T00:00:00Z',
  '---',
  '## Features',
  '- **Streaming chat**: SSE responses',
  '## Fixes',
  '- **Export cursor**: ties',
].join('\n');
