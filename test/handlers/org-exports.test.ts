/**
 * POST/GET /api/v1/org/exports over HTTP: a bulk snapshot export runs on the local exports queue and
 * its files, downloaded through their links, hold the lists as of the watermark.
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToSession, startSession } from '../../functions/chat/app/record-session-activity';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const EXPORTS = '/api/v1/org/exports';

interface Job {
  id: string;
  status: string;
  lists: string[];
  updated_after: string;
  files: { list: string; url: string; rows: number; bytes: number }[];
  progress: { list: string; files: number; done: boolean }[];
}

describe('bulk snapshot exports', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ visibilityDelayMs: 0 });
  });
  afterAll(() => p.stop());

  const poll = async (token: string, id: string): Promise<Job> => {
    // The local queue runner picks a message up within a second; well under the key's 120 requests a minute.
    for (let i = 0; i < 100; i++) {
      const res = await p.call('GET', `${EXPORTS}/${id}`, { token });
      expect(res.status, res.text).toBe(200);
      if (res.body.data.status !== 'running') return res.body.data;
      await new Promise((r) => setTimeout(r, 300));
    }
    throw new Error('export did not finish');
  };
  const rowsOf = async (job: Job, list: string) => {
    const out: Record<string, unknown>[] = [];
    for (const f of job.files.filter((x) => x.list === list)) {
      const res = await fetch(f.url);
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBe(f.bytes);
      const text = gunzipSync(bytes).toString('utf8');
      const lines = text.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(f.rows);
      out.push(...lines.map((l) => JSON.parse(l) as Record<string, unknown>));
    }
    return out;
  };

  it('writes every list as of its watermark, each row as its list shows it', async () => {
    const f = await p.fixture();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const s = await startSession(p.deps, { appId: f.appId, title: `s${i}` });
      await appendToSession(p.deps, { sessionId: s.id, messages: [{ role: 'user', content: `hello ${i}` }] });
      ids.push(s.id);
    }
    const created = await p.call('POST', EXPORTS, { token: f.orgKey, body: {} });
    expect(created.status, created.text).toBe(202);
    expect(created.body.data).toMatchObject({ status: 'running', lists: ['apps', 'sessions', 'usage', 'tombstones'], files: [] });
    const job = await poll(f.orgKey, created.body.data.id);
    expect(job.status).toBe('completed');
    expect(job.progress.every((x) => x.done)).toBe(true);

    const sessions = await rowsOf(job, 'sessions');
    const listed = await p.call('GET', '/api/v1/org/sessions?limit=100&include=messages,tool_details', { token: f.orgKey });
    expect(sessions).toEqual(listed.body.data);
    expect(sessions.map((s) => s.id).sort()).toEqual([...ids].sort());
    expect(await rowsOf(job, 'apps')).toEqual((await p.call('GET', '/api/v1/org/apps', { token: f.orgKey })).body.data);
    expect(await rowsOf(job, 'usage')).toEqual([]);
    expect(await rowsOf(job, 'tombstones')).toEqual([]);
  });

  it('takes named lists, each needing its scope; refuses unknown ones; a job of another org is a 404', async () => {
    const f = await p.fixture();
    const bad = await p.call('POST', EXPORTS, { token: f.orgKey, body: { lists: ['sessions', 'messages'] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { code: 'bad_request', message: 'lists must be a non-empty array of apps, sessions, usage, tombstones' } });
    const extra = await p.call('POST', EXPORTS, { token: f.orgKey, body: { lists: ['apps'], format: 'csv' } });
    expect(extra.body).toEqual({ error: { code: 'bad_request', message: 'Unsupported field: format' } });
    const usageOnly = await p.admin('POST', `/orgs/${f.orgId}/keys`, { scopes: ['usage:read'] });
    const forbidden = await p.call('POST', EXPORTS, { token: usageOnly.body.data.key, body: { lists: ['sessions'] } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: { code: 'forbidden', message: 'API key lacks the required scope: transcripts:read' } });
    const own = await p.call('POST', EXPORTS, { token: usageOnly.body.data.key });
    expect(own.status).toBe(202);
    expect(own.body.data.lists).toEqual(['usage']);

    const other = await p.fixture();
    expect((await p.call('GET', `${EXPORTS}/${own.body.data.id}`, { token: other.orgKey })).status).toBe(404);
    expect((await p.call('GET', `${EXPORTS}/not-a-job`, { token: f.orgKey })).status).toBe(404);
    await poll(usageOnly.body.data.key, own.body.data.id);
  });
});
