import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chat, chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { startMcpTestServer, type McpTestServer } from '../support/mcp-test-server';
import { startTestPlatform, type TestPlatform, type TestResponse } from '../support/platform';

const SERVICE = 'chat-mcp-test';
/** Variable values that must never leave the tool connection: not in responses, not in logs. */
const CRM_TOKEN = 'crm-tok-7f3a9c51e0';
const TENANT = 'tenant-acme-51b2d8';
const TENANT_2 = 'tenant-other-88d1f4';
const SECRETS = [CRM_TOKEN, TENANT, TENANT_2];

/** A loopback URL nothing listens on: connections are refused. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}

const HEADER_TEMPLATES = {
  Authorization: 'Bearer {{session.crmToken}}',
  'X-Tenant': '{{session.tenant}}',
  'X-Region': '{{session.region}}',
  'X-Static': 'fixed',
};

describe('chat turns with a real MCP server and session variables', () => {
  let mcp: McpTestServer;
  let p: TestPlatform;
  let w: ChatWorld;
  const logOutput: string[] = [];
  const responses: TestResponse[] = [];

  beforeAll(async () => {
    // Everything the process writes while the platform runs, at DEBUG level.
    const capture = (chunk: unknown) => {
      logOutput.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture as typeof process.stdout.write);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture as typeof process.stderr.write);
    mcp = await startMcpTestServer();
    p = await startTestPlatform({ visibilityDelayMs: 0, logger: new Logger({ serviceName: SERVICE, logLevel: 'DEBUG' }) });
    w = await chatWorld(p);
    await patchSettings(p, w.appId, { mcpConnections: [{ name: 'crm', url: mcp.url, headers: HEADER_TEMPLATES }] });
  });
  afterAll(async () => {
    await p.stop();
    await mcp.close();
    vi.restoreAllMocks();
  });

  async function call(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<TestResponse> {
    const res = await chat(p, w.chatKey, { model: w.appNameId, ...body }, headers);
    responses.push(res);
    return res;
  }

  /** The headers of the MCP requests received since `from`. */
  function receivedSince(from: number) {
    const got = mcp.requests.slice(from);
    expect(got.length).toBeGreaterThan(0);
    return got.map((r) => r.headers);
  }

  let sessionId = '';

  it('renders the header templates from the variables bound on the first call, and calls the tool', async () => {
    const from = mcp.requests.length;
    const res = await call({ messages: [{ role: 'user', content: 'use lookup_order {"orderId":"42"}' }], variables: { crmToken: CRM_TOKEN, tenant: TENANT } });
    expect(res.status, res.text).toBe(200);
    sessionId = res.body.chatSessionId;
    expect(res.body.choices[0].message.content).toContain('Order 42: shipped');
    expect(mcp.toolCalls).toEqual([{ name: 'lookup_order', args: { orderId: '42' } }]);
    // Every request of the MCP exchange (initialize, list, call) carried exactly the rendered headers;
    // X-Region names a variable the session does not have, so it is left out.
    for (const h of receivedSince(from)) {
      expect(h.authorization).toBe(`Bearer ${CRM_TOKEN}`);
      expect(h['x-tenant']).toBe(TENANT);
      expect(h['x-static']).toBe('fixed');
      expect(h).not.toHaveProperty('x-region');
      expect(JSON.stringify(h)).not.toContain('{{');
    }
    expect(mcp.requests.slice(from).filter((r) => r.method === 'POST').length).toBeGreaterThanOrEqual(4);
  });

  it('records the tool marker on the assistant message', async () => {
    const res = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages?include=tool_details`, { token: w.orgKey });
    responses.push(res);
    expect(res.status).toBe(200);
    const [user, assistant] = res.body.data.messages;
    expect(user).not.toHaveProperty('tools');
    expect(assistant.content).toContain('Order 42: shipped');
    expect(assistant.tools).toEqual([{ id: expect.any(String), name: 'lookup_order', type: 'tool', success: true }]);
    expect(assistant.tools[0].id.length).toBeGreaterThan(0);
  });

  it('keeps the variables bound for later calls of the session, merging new values over the old', async () => {
    let from = mcp.requests.length;
    const kept = await call({ messages: [{ role: 'user', content: 'call lookup_order {"orderId":"43"}' }], chatSessionId: sessionId });
    expect(kept.status, kept.text).toBe(200);
    for (const h of receivedSince(from)) expect([h.authorization, h['x-tenant']]).toEqual([`Bearer ${CRM_TOKEN}`, TENANT]);

    from = mcp.requests.length;
    const merged = await call(
      { messages: [{ role: 'user', content: 'use lookup_order {"orderId":"44"}' }], variables: { tenant: TENANT_2 } },
      { 'X-Chat-Session-ID': sessionId },
    );
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.choices[0].message.content).toContain('Order 44: shipped');
    for (const h of receivedSince(from)) {
      expect(h.authorization).toBe(`Bearer ${CRM_TOKEN}`);
      expect(h['x-tenant']).toBe(TENANT_2);
    }
  });

  it("takes variables named like Object.prototype's members (__proto__, constructor, toString) as plain variables, bound and kept", async () => {
    await patchSettings(p, w.appId, {
      mcpConnections: [
        {
          name: 'crm',
          url: mcp.url,
          headers: { 'X-Proto': '{{session.__proto__}}', 'X-Ctor': '{{session.constructor}}', 'X-Str': '{{session.toString}}', 'X-Static': 'fixed' },
        },
      ],
    });
    try {
      let from = mcp.requests.length;
      const first = await call({
        messages: [{ role: 'user', content: 'use lookup_order {"orderId":"7"}' }],
        variables: JSON.parse('{"__proto__":"p-1","constructor":"c-1"}'),
      });
      expect(first.status, first.text).toBe(200);
      // `toString` is no variable of the session: its header is left out, never Object.prototype's function.
      for (const h of receivedSince(from)) expect([h['x-proto'], h['x-ctor'], h['x-str'], h['x-static']]).toEqual(['p-1', 'c-1', undefined, 'fixed']);
      from = mcp.requests.length;
      const later = await call({
        messages: [{ role: 'user', content: 'use lookup_order {"orderId":"8"}' }],
        chatSessionId: first.body.chatSessionId,
        variables: { toString: 's-2' },
      });
      expect(later.status, later.text).toBe(200);
      for (const h of receivedSince(from)) expect([h['x-proto'], h['x-ctor'], h['x-str']]).toEqual(['p-1', 'c-1', 's-2']);
    } finally {
      await patchSettings(p, w.appId, { mcpConnections: [{ name: 'crm', url: mcp.url, headers: HEADER_TEMPLATES }] });
    }
  });

  it('does not share variables between sessions', async () => {
    const from = mcp.requests.length;
    const res = await call({ messages: [{ role: 'user', content: 'use lookup_order {"orderId":"1"}' }] });
    expect(res.status, res.text).toBe(200);
    for (const h of receivedSince(from)) {
      expect(h).not.toHaveProperty('authorization');
      expect(h).not.toHaveProperty('x-tenant');
      expect(h['x-static']).toBe('fixed');
    }
  });

  it('drops a header whose variable value is not a valid header value (CR/LF, characters above U+00FF) instead of failing the turn', async () => {
    for (const tenant of ['x\r\nX-Injected: yes', 'テナント']) {
      const from = mcp.requests.length;
      const res = await call({ messages: [{ role: 'user', content: 'use lookup_order {"orderId":"2"}' }], variables: { crmToken: CRM_TOKEN, tenant } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.choices[0].message.content).toContain('Order 2: shipped');
      for (const h of receivedSince(from)) {
        expect(h.authorization).toBe(`Bearer ${CRM_TOKEN}`);
        expect(h).not.toHaveProperty('x-tenant');
        expect(h).not.toHaveProperty('x-injected');
      }
    }
  });

  it('marks a tool that errors with success: false', async () => {
    const res = await call({ messages: [{ role: 'user', content: 'use failing_tool' }], chatSessionId: sessionId });
    expect(res.status, res.text).toBe(200);
    expect(res.body.choices[0].message.content).toContain('CRM backend exploded');
    const messages = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages?include=tool_details`, { token: w.orgKey });
    responses.push(messages);
    const last = messages.body.data.messages.at(-1);
    expect(last.role).toBe('assistant');
    expect(last.tools).toEqual([{ id: expect.any(String), name: 'failing_tool', type: 'tool', success: false }]);
  });

  it('streams a tool turn too', async () => {
    const res = await fetch(`${p.baseUrl}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${w.chatKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: w.appNameId,
        messages: [{ role: 'user', content: 'use lookup_order {"orderId":"45"}' }],
        chatSessionId: sessionId,
        stream: true,
      }),
    });
    const text = await res.text();
    responses.push({ status: res.status, headers: res.headers, body: undefined, text });
    expect(res.status).toBe(200);
    expect(text).toContain('shipped');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('logs failures without the variable values', async () => {
    // A rejected request that carries variables, and a turn one of whose tool connections is down
    // (unavailable for the turn, which still answers).
    const rejected = await call({ messages: [{ role: 'user', content: 'hi' }], variables: { crmToken: CRM_TOKEN, tenant: TENANT }, unknownField: 1 });
    expect(rejected.status).toBe(400);
    await patchSettings(p, w.appId, {
      mcpConnections: [
        { name: 'crm', url: mcp.url, headers: HEADER_TEMPLATES },
        { name: 'down', url: await closedPortUrl(), headers: HEADER_TEMPLATES },
      ],
    });
    const degraded = await call({
      messages: [{ role: 'user', content: 'use lookup_order {"orderId":"46"}' }],
      chatSessionId: sessionId,
      variables: { crmToken: CRM_TOKEN },
    });
    expect(degraded.status, degraded.text).toBe(200);
    expect(degraded.body.choices[0].message.content).toContain('Order 46: shipped');

    const ours = logOutput
      .join('')
      .split('\n')
      .filter((l) => l.includes(`"service":"${SERVICE}"`));
    expect(ours.some((l) => l.includes('request rejected'))).toBe(true);
    const all = logOutput.join('');
    for (const secret of SECRETS) expect(all).not.toContain(secret);
  });

  it('never shows a variable value in a response body or header', () => {
    expect(responses.length).toBeGreaterThanOrEqual(10);
    for (const res of responses) {
      const headers = JSON.stringify([...res.headers.entries()]);
      for (const secret of SECRETS) {
        expect(res.text).not.toContain(secret);
        expect(headers).not.toContain(secret);
      }
    }
  });
});
