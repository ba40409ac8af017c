/**
 * GET /api/v1/org/sessions/{sessionId}/messages: the rules every route shares (keys, unrecognized
 * parameters and their cut-off date) come from test/support/export-routes.ts; this file adds what only
 * this route does (the session subset and its messages, tool markers, Zero Data Retention, 404s, message
 * times) and the rate limit all area A routes share.
 */
import { describe, expect, it } from 'vitest';
import { appendToSession, startSession } from '../../functions/chat/app/record-session-activity';
import type { ToolMarker } from '../../functions/conversations/domain/session';
import { ISO_MS, expectError, newKey, pinnedPlatform } from '../support/export-api';
import { MESSAGES_ROUTE, exportRouteRules } from '../support/export-routes';
import { seedSessions } from '../support/imports';
import type { TestPlatform } from '../support/platform';

const SUBSET_FIELDS = ['app_id', 'consumer_email', 'consumer_id', 'external_id', 'id', 'query_params', 'source', 'started_at', 'title'];
const messagesPath = (sessionId: string, query = '') => `/api/v1/org/sessions/${sessionId}/messages${query}`;

describe('GET /api/v1/org/sessions/{sessionId}/messages', () => {
  let p: TestPlatform;
  const driver = pinnedPlatform('2026-11-02T10:00:00.000Z', { visibilityDelayMs: 0 }, (started) => (p = started));

  const get = (token: string, sessionId: string, query = '') => p.call('GET', messagesPath(sessionId, query), { token });

  exportRouteRules(MESSAGES_ROUTE, () => p);

  it('answers the session subset and the messages with exactly the spec’s fields, in order', async () => {
    const f = await p.fixture();
    const [imported] = await seedSessions(p, f.appId, [{ email: 'grace@example.com' }]);
    const consumerId = (await p.deps.sessions.get(imported!))!.consumerId!;
    const s = await startSession(p.deps, {
      appId: f.appId,
      consumerId,
      title: 'Refund',
      externalId: 'telegram:4711',
      queryParams: [
        { name: 'bt', value: 'x' },
        { name: 'campaign', value: 'spring' },
        { name: 'share', value: 'y' },
        { name: 'session', value: 'z' },
      ],
    });
    const { messages } = await appendToSession(p.deps, {
      sessionId: s.id,
      messages: [
        { role: 'user', content: 'Where is my refund?' },
        { role: 'assistant', content: 'Let me check.', tools: [{ id: 't1', name: 'lookup_order', type: 'tool_call', success: true }] },
      ],
    });
    await appendToSession(p.deps, { sessionId: s.id, messages: [{ role: 'user', content: 'Thanks' }] });

    const res = await get(f.orgKey, s.id);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(Object.keys(res.body.data).sort()).toEqual(['messages', 'session', 'zdr']);
    expect(res.body.data.zdr).toBe(false);
    const session = res.body.data.session;
    expect(Object.keys(session).sort()).toEqual(SUBSET_FIELDS);
    expect(session).toEqual({
      id: s.id,
      app_id: f.appId,
      consumer_id: consumerId,
      consumer_email: 'grace@example.com',
      title: 'Refund',
      source: 'APP',
      external_id: 'telegram:4711',
      query_params: [{ name: 'campaign', value: 'spring' }],
      started_at: new Date(Math.floor(s.startedAtUs / 1000)).toISOString(),
    });
    expect(res.body.data.messages.map((m: { content: string }) => m.content)).toEqual(['Where is my refund?', 'Let me check.', 'Thanks']);
    for (const m of res.body.data.messages) {
      // Without include=tool_details no message carries `tools`, even one that has markers.
      expect(Object.keys(m).sort()).toEqual(['content', 'created_at', 'id', 'role']);
      expect(typeof m.id).toBe('string');
      expect(['user', 'assistant']).toContain(m.role);
      expect(m.created_at).toMatch(ISO_MS);
    }
    expect(res.body.data.messages[0]).toMatchObject({ id: messages[0]!.id, role: 'user' });
    expect(res.body.data.messages[1]).toMatchObject({ id: messages[1]!.id, role: 'assistant' });
  });

  it('adds tool markers with include=tool_details, only on messages that have them, without heavy blobs', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    // A marker as a tool runner might hand it over, blobs included: none of them may reach the export.
    const heavy = { id: 'call_1', name: 'run_sql', type: 'tool_call', success: false, code: 'SELECT 1', input: { q: 'x' }, output: 'rows…' } as ToolMarker;
    await appendToSession(p.deps, {
      sessionId: s.id,
      messages: [
        { role: 'user', content: 'plain question' },
        { role: 'assistant', content: 'with a tool', tools: [heavy] },
        { role: 'assistant', content: 'with a component', tools: [{ type: 'custom_component', component: 'PriceCard' }] },
        { role: 'assistant', content: 'no markers', tools: [] },
      ],
    });
    for (const include of ['tool_details', 'tool_details,tool_details']) {
      const res = await get(f.orgKey, s.id, `?include=${include}`);
      expect(res.status, res.text).toBe(200);
      const [plain, tool, component, empty] = res.body.data.messages;
      expect(plain).not.toHaveProperty('tools');
      expect(empty).not.toHaveProperty('tools');
      expect(tool.tools).toEqual([{ id: 'call_1', name: 'run_sql', type: 'tool_call', success: false }]);
      expect(component.tools).toEqual([{ type: 'custom_component', component: 'PriceCard' }]);
      expect(res.text).not.toContain('SELECT 1');
      expect(res.text).not.toContain('rows…');
    }
  });

  it('rejects an unknown, empty or repeated include with 400', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    for (const query of ['?include=bogus', '?include=', '?include=tool_details,bogus', '?include=tools', '?include=tool_details&include=tool_details']) {
      expectError(await get(f.orgKey, s.id, query), 400, 'bad_request');
    }
  });

  it('answers no messages and zdr true for a Zero Data Retention app', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId, title: 'kept' });
    await appendToSession(p.deps, { sessionId: s.id, messages: [{ role: 'user', content: 'before ZDR' }] });
    expect((await get(f.orgKey, s.id)).body.data).toMatchObject({ zdr: false, messages: [{ content: 'before ZDR' }] });

    const patched = await p.admin('PATCH', `/apps/${f.appId}`, { settings: { zeroDataRetention: true } });
    expect(patched.status, patched.text).toBe(200);
    for (const query of ['', '?include=tool_details']) {
      const res = await get(f.orgKey, s.id, query);
      expect(res.status).toBe(200);
      expect(res.body.data.zdr).toBe(true);
      expect(res.body.data.messages).toEqual([]);
      expect(res.body.data.session).toMatchObject({ id: s.id, title: 'kept' });
      expect(res.text).not.toContain('before ZDR');
    }
  });

  it('answers 404 for another org’s session, an unknown or malformed id, and a deleted session', async () => {
    const f = await p.fixture();
    const g = await p.fixture();
    const mine = await startSession(p.deps, { appId: f.appId });
    const theirs = await startSession(p.deps, { appId: g.appId, title: 'secret title' });
    await appendToSession(p.deps, { sessionId: theirs.id, messages: [{ role: 'user', content: 'secret content' }] });

    const foreign = await get(f.orgKey, theirs.id);
    expectError(foreign, 404);
    expect(foreign.text).not.toContain('secret');
    const unknown = await get(f.orgKey, '123e4567-e89b-12d3-a456-426614174000');
    expectError(unknown, 404);
    // Another org's session answers exactly like one that does not exist.
    expect(foreign.body).toEqual(unknown.body);
    expectError(await get(f.orgKey, 'not-a-session'), 404);

    expect((await get(f.orgKey, mine.id)).status).toBe(200);
    const del = await p.admin('DELETE', `/sessions/${mine.id}`);
    expect(del.status, del.text).toBe(200);
    expectError(await get(f.orgKey, mine.id), 404);
    expect((await get(g.orgKey, theirs.id)).status).toBe(200);
  });

  it('shows message times floored to the millisecond', async () => {
    const f = await p.fixture();
    const startUs = driver.msAhead(60_000) + 999;
    driver.jumpTo(startUs);
    const s = await startSession(p.deps, { appId: f.appId });
    expect(s.startedAtUs).toBe(startUs);
    driver.jumpTo(driver.msAhead(60_000) + 995);
    const { messages } = await appendToSession(p.deps, { sessionId: s.id, messages: [{ role: 'user', content: 'late in its millisecond' }] });
    // The premise: the stored value sits in the last microseconds of its millisecond.
    const createdUs = messages[0]!.createdAtUs;
    expect(createdUs % 1000).toBeGreaterThanOrEqual(996);
    const res = await get(f.orgKey, s.id);
    expect(res.body.data.session.started_at).toBe(new Date(Math.floor(startUs / 1000)).toISOString());
    expect(res.body.data.messages[0].created_at).toBe(new Date(Math.floor(createdUs / 1000)).toISOString());
  });

  it('counts every area A route in one 120-per-minute window per key; the 121st call is 429 with Retry-After', async () => {
    const f = await p.fixture();
    const s = await startSession(p.deps, { appId: f.appId });
    // One second into a fresh minute window.
    const ahead = driver.msAhead(120_000);
    driver.jumpTo(ahead - (ahead % 60_000_000) + 1_000_000);
    const paths = ['/api/v1/org/apps', '/api/v1/org/sessions', messagesPath(s.id), '/api/v1/org/usage', '/api/v1/org/tombstones'];
    for (const path of paths) {
      const statuses = await Promise.all(Array.from({ length: 24 }, () => p.call('GET', path, { token: f.orgKey }).then((r) => r.status)));
      expect(
        statuses.every((x) => x === 200),
        `${path}: ${statuses}`,
      ).toBe(true);
    }
    for (const path of paths) {
      const res = await p.call('GET', path, { token: f.orgKey });
      expectError(res, 429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(58);
      expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
    // Another key of the same org has its own window; the next window starts fresh.
    expect((await get(await newKey(p, f.orgId), s.id)).status).toBe(200);
    driver.advance(60_000);
    expect((await get(f.orgKey, s.id)).status).toBe(200);
  });
});
