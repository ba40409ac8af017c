/**
 * Tools fail, the chat does not (ADR 0020): an MCP connection that is unreachable (a dead port), slow
 * (a server that accepts and never answers, bounded by the listing timeout) or erroring (HTTP 500 on
 * every request) is unavailable for the turn: the model still answers, the turn is recorded and billed
 * as usual, and the export shows a tool marker with `success: false` naming the connection. A turn that
 * fails before its first message leaves no session behind. Over HTTP against the local platform with
 * the real MCP gateway (its listing timeout shortened for the test).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_LIST_TIMEOUT_MS, McpToolProvider } from '../../functions/chat/adapters/mcp-tool-provider';
import { chat, chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { startMcpTestServer, type McpTestServer } from '../support/mcp-test-server';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const LIST_TIMEOUT_MS = 800;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('MCP tool connections that fail', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  let mcp: McpTestServer;
  let deadUrl: string;
  let hangingUrl: string;
  let erroringUrl: string;
  const hanging = createServer(() => undefined); // accepts, reads, never answers
  const sockets = new Set<Socket>();
  const erroring = createServer((_req, res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('upstream exploded'));

  beforeAll(async () => {
    mcp = await startMcpTestServer();
    hanging.on('connection', (s) => sockets.add(s));
    hangingUrl = await listen(hanging);
    erroringUrl = await listen(erroring);
    const dead = createServer();
    deadUrl = await listen(dead);
    await new Promise<void>((r) => dead.close(() => r()));
    // `openai:` models talk to an endpoint that is down: their first model call fails.
    p = await startTestPlatform({
      visibilityDelayMs: 0,
      tools: new McpToolProvider(30_000, LIST_TIMEOUT_MS),
      openAiBaseUrl: deadUrl.replace(/\/mcp$/, '/v1'),
      openAiApiKey: 'sk-test',
    });
    w = await chatWorld(p);
  });
  afterAll(async () => {
    await p.stop();
    await mcp.close();
    for (const s of sockets) s.destroy();
    hanging.close();
    erroring.close();
  });

  const toolsOfLastAssistant = async (sessionId: string) => {
    const res = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages?include=tool_details`, { token: w.orgKey });
    expect(res.status, res.text).toBe(200);
    return res.body.data.messages.filter((m: { role: string }) => m.role === 'assistant').at(-1).tools;
  };

  it('bounds the default listing timeout to a few seconds', () => {
    expect(MCP_LIST_TIMEOUT_MS).toBeLessThanOrEqual(10_000);
  });

  it.each([
    ['unreachable (a dead port)', () => deadUrl],
    ['slow (never answers)', () => hangingUrl],
    ['erroring (HTTP 500)', () => erroringUrl],
  ])('a connection that is %s is unavailable for the turn; the turn answers, is recorded and billed', async (_, url) => {
    await patchSettings(p, w.appId, {
      mcpConnections: [
        { name: 'crm', url: mcp.url, headers: {} },
        { name: 'broken', url: url(), headers: {} },
      ],
    });
    const usageBefore = (await p.call('GET', '/api/v1/org/usage?limit=100', { token: w.orgKey })).body.data.length;
    const started = Date.now();
    const res = await chat(p, w.chatKey, { model: w.appNameId, messages: [{ role: 'user', content: 'use lookup_order {"orderId":"7"}' }] });
    expect(res.status, res.text).toBe(200);
    expect(Date.now() - started).toBeLessThan(LIST_TIMEOUT_MS + 10_000);
    expect(res.body.choices[0].message.content).toContain('Order 7: shipped');
    const tools = await toolsOfLastAssistant(res.body.chatSessionId);
    expect(tools).toEqual(
      expect.arrayContaining([
        { id: expect.any(String), name: 'broken', type: 'mcp_connection', success: false },
        { id: expect.any(String), name: 'lookup_order', type: 'tool', success: true },
      ]),
    );
    const usageAfter = (await p.call('GET', '/api/v1/org/usage?limit=100', { token: w.orgKey })).body.data.length;
    expect(usageAfter).toBeGreaterThan(usageBefore);
  });

  it('the only connection down: the model answers without tools', async () => {
    await patchSettings(p, w.appId, { mcpConnections: [{ name: 'crm', url: deadUrl, headers: {} }] });
    const res = await chat(p, w.chatKey, { model: w.appNameId, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(res.status, res.text).toBe(200);
    expect(await toolsOfLastAssistant(res.body.chatSessionId)).toEqual([{ id: expect.any(String), name: 'crm', type: 'mcp_connection', success: false }]);
    // Later turns of the session are not affected either.
    const again = await chat(p, w.chatKey, {
      model: w.appNameId,
      chatSessionId: res.body.chatSessionId,
      messages: [{ role: 'user', content: 'Still there?' }],
    });
    expect(again.status, again.text).toBe(200);
  });

  it('a turn that fails before its first message leaves no session behind', async () => {
    await patchSettings(p, w.appId, { mcpConnections: [] });
    const sessionsBefore = (await p.call('GET', '/api/v1/org/sessions?limit=100', { token: w.orgKey })).body.data.map((s: { id: string }) => s.id);
    await patchSettings(p, w.appId, { model: 'openai:gpt-4o-mini' });
    const failed = await chat(p, w.chatKey, { model: w.appNameId, messages: [{ role: 'user', content: 'Hello' }], variables: { tenant: 'acme' } });
    expect(failed.status, failed.text).toBeGreaterThanOrEqual(500);
    await patchSettings(p, w.appId, { model: 'offline' });
    const sessionsAfter = (await p.call('GET', '/api/v1/org/sessions?limit=100', { token: w.orgKey })).body.data.map((s: { id: string }) => s.id);
    expect(sessionsAfter).toEqual(sessionsBefore);
  });
});
