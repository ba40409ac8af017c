/**
 * A turn that continues a session whose first turn is still running (one turn at a time, docs/adr/0022):
 * a streamed first turn hands out its session id (X-Chat-Session-ID) before the session is recorded.
 * A turn continuing that id waits for the first turn like on any busy session, then continues it (or
 * answers 409 with Retry-After after its bounded wait), never a 404 for a session that is on its way;
 * a first turn that fails or crashes leaves no session and, once its lease ran out, a 404.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_BUSY_MESSAGE, TURN_LEASE_MS } from '../../functions/chat/app/prepare-chat-turn';
import type { McpConnection } from '../../functions/tenancy/domain/app';
import type { ListedTools, ToolCallResult, ToolProvider } from '../../functions/chat/app/chat-ports';
import { chat, chatWorld, COMPLETIONS, patchSettings, secondApp, type ChatWorld } from '../support/chat';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { png } from '../support/file-fixtures';
import { reservationsOf, tableOf } from '../support/store';

/** One tool, `hold`, whose calls wait until the test opens the gate: a first turn held mid-way. */
class GatedTools implements ToolProvider {
  private open: () => void = () => undefined;
  private gate: Promise<void> = Promise.resolve();
  private entered: () => void = () => undefined;
  /** Resolves once a turn is inside `hold`. */
  inside: Promise<void> = Promise.resolve();

  close(): void {
    this.gate = new Promise((r) => (this.open = r));
    this.inside = new Promise((r) => (this.entered = r));
  }

  release(): void {
    this.open();
  }

  async listTools(connections: readonly McpConnection[]): Promise<ListedTools> {
    return { tools: [{ connection: connections[0]!.name, spec: { name: 'hold', description: 'Waits', inputSchema: { type: 'object' } } }], unavailable: [] };
  }

  async callTool(): Promise<ToolCallResult> {
    this.entered();
    await this.gate;
    return { content: 'released', isError: false };
  }
}

describe('continuing a session while its first turn still runs', () => {
  const clock = new TestClock('2026-11-20T10:00:00.000Z');
  const tools = new GatedTools();
  let p: TestPlatform;
  let w: ChatWorld;
  beforeAll(async () => {
    // `openai:` models talk to a closed port: their turns fail.
    p = await startTestPlatform({ visibilityDelayMs: 0, clock, tools, openAiBaseUrl: 'http://127.0.0.1:9/v1', openAiApiKey: 'sk-test' });
    w = await chatWorld(p);
    await patchSettings(p, w.appId, { mcpConnections: [{ name: 'gate', url: 'http://127.0.0.1:9/mcp', headers: {} }] });
  });
  afterAll(() => p.stop());

  const turn = (content: string, chatSessionId?: string, key = w.chatKey, model = w.appNameId) =>
    chat(p, key, { model, messages: [{ role: 'user', content }], ...(chatSessionId ? { chatSessionId } : {}) });
  const exported = async (sessionId: string) =>
    ((await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages`, { token: w.orgKey })).body.data.messages as { role: string; content: string }[]).map(
      (m) => m.content,
    );

  /** A streamed first turn held inside its tool call; resolves with its session id and the rest of its body. */
  async function heldFirstTurn(content: string) {
    tools.close();
    const res = await fetch(`${p.baseUrl}${COMPLETIONS}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${w.chatKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: w.appNameId, messages: [{ role: 'user', content }], stream: true }),
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-chat-session-id')!;
    await tools.inside;
    const body = res.text();
    // Awaited by the test; a test that fails before then must not leave an unhandled rejection behind.
    body.catch(() => undefined);
    return { id, body };
  }

  it('waits for the first turn, then continues the session it recorded', async () => {
    const first = await heldFirstTurn('use hold');
    const second = turn('and then?', first.id);
    await new Promise((r) => setTimeout(r, 300));
    tools.release();
    await first.body;
    const res = await second;
    expect(res.status, res.text).toBe(200);
    expect(res.body.chatSessionId).toBe(first.id);
    // The second turn saw the first one: the offline model counts the user messages it was given.
    expect(res.body.choices[0].message.content).toBe('Offline reply #2: and then?');
    expect(await exported(first.id)).toEqual(['use hold', 'Tool result: released', 'and then?', 'Offline reply #2: and then?']);
  });

  it('takes an upload that names the session while its first turn runs, like one naming any session of the app', async () => {
    const first = await heldFirstTurn('use hold while I upload');
    const form = new FormData();
    form.append('file', new Blob([png(4, 4)], { type: 'image/png' }), 'shot.png');
    const upload = await fetch(`${p.baseUrl}/api/v1/chat/files`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${w.chatKey}`, 'X-Chat-Session-ID': first.id },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(201);
    // Another app's key learns nothing about the reservation.
    const other = await secondApp(p, w.orgId, 'Uploading App');
    const foreign = await fetch(`${p.baseUrl}/api/v1/chat/files`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${other.chatKey}`, 'X-Chat-Session-ID': first.id },
      body: form,
    });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: 'Chat session not found' });
    tools.release();
    await first.body;
  });

  it('answers 409 with Retry-After when the first turn outlasts the bounded wait, having written nothing', async () => {
    const first = await heldFirstTurn('use hold again');
    const busy = await turn('too early', first.id);
    expect(busy.status, busy.text).toBe(409);
    expect(busy.body).toEqual({ error: SESSION_BUSY_MESSAGE });
    expect(busy.headers.get('retry-after')).toBe('1');
    // Another app's key learns nothing about the reservation: a 404 at once.
    const other = await secondApp(p, w.orgId, 'Other App');
    const foreign = await turn('not mine', first.id, other.chatKey, other.appNameId);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Chat session not found' });
    tools.release();
    await first.body;
    const later = await turn('now', first.id);
    expect(later.status, later.text).toBe(200);
    expect(await exported(first.id)).toEqual(['use hold again', 'Tool result: released', 'now', 'Offline reply #2: now']);
  });

  it('a first turn that fails takes its reservation back: no session, nothing reserved', async () => {
    const app = await secondApp(p, w.orgId, 'Failing App');
    await patchSettings(p, app.appId, { model: 'openai:gpt-4o-mini' });
    const failed = await turn('this fails', undefined, app.chatKey, app.appNameId);
    expect(failed.status).toBe(500);
    expect(await reservationsOf(tableOf(p), app.appId)).toEqual([]);
    const sessions = await p.call('GET', `/api/v1/org/sessions?app_id=${app.appId}`, { token: w.orgKey });
    expect(sessions.body.data).toEqual([]);
  });

  it('a reservation a crash left blocks its id only until its lease runs out, then the id is unknown', async () => {
    const id = randomUUID();
    const now = clock.nowUs();
    // What a process killed during a first turn leaves behind.
    await p.deps.sessions.reserve(id, w.appId, { leaseId: 'crashed-turn', untilUs: now + TURN_LEASE_MS * 1000 });
    const busy = await turn('while it holds', id);
    expect(busy.status).toBe(409);
    clock.advance(TURN_LEASE_MS + 1_000);
    const gone = await turn('after it ran out', id);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'Chat session not found' });
    expect(await p.deps.sessions.get(id)).toBeUndefined();
  });
});
