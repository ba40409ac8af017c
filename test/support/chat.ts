/**
 * Helpers for area B tests: chat keys, app settings, chat calls, Server-Sent Events, and a scripted
 * tool gateway (the MCP peer's stand-in where the test is about the chat turn, not the MCP wire).
 */
import { expect } from 'vitest';
import type { McpConnection } from '../../functions/tenancy/domain/app';
import type { ListedTools, ToolCallResult, ToolProvider } from '../../functions/chat/app/chat-ports';
import type { TestPlatform, TestResponse } from './platform';

export const COMPLETIONS = '/api/v1/chat/completions';

export interface ChatWorld {
  readonly orgId: string;
  readonly appId: string;
  readonly appNameId: string;
  readonly orgKey: string;
  readonly chatKey: string;
  readonly chatKeyId: string;
}

export async function createChatKey(p: TestPlatform, appId: string, body: Record<string, unknown> = {}): Promise<{ key: string; id: string }> {
  const res = await p.admin('POST', `/apps/${appId}/chat-keys`, body);
  if (res.status !== 201) throw new Error(`chat key: ${res.status} ${res.text}`);
  return { key: res.body.data.key, id: res.body.data.id };
}

/** An org (paid unless told) with an app, an org key with every read scope and a chat key of the app. */
export async function chatWorld(p: TestPlatform, opts: { plan?: 'free' | 'paid' } = {}): Promise<ChatWorld> {
  const f = await p.fixture(opts);
  const key = await createChatKey(p, f.appId);
  return { orgId: f.orgId, appId: f.appId, appNameId: f.appNameId, orgKey: f.orgKey, chatKey: key.key, chatKeyId: key.id };
}

/** A second app (with its own chat key) in an existing org. */
export async function secondApp(p: TestPlatform, orgId: string, name = 'Second App'): Promise<{ appId: string; appNameId: string; chatKey: string }> {
  const app = await p.admin('POST', `/orgs/${orgId}/apps`, { name });
  if (app.status !== 201) throw new Error(`app: ${app.status} ${app.text}`);
  const key = await createChatKey(p, app.body.data.id);
  return { appId: app.body.data.id, appNameId: app.body.data.appNameId, chatKey: key.key };
}

export async function patchSettings(p: TestPlatform, appId: string, settings: Record<string, unknown>): Promise<void> {
  const res = await p.admin('PATCH', `/apps/${appId}`, { settings });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${res.text}`);
}

export async function addCredits(p: TestPlatform, orgId: string, amountUsd: string): Promise<void> {
  const res = await p.admin('POST', `/orgs/${orgId}/credits`, { amountUsd });
  if (res.status !== 200) throw new Error(`credits: ${res.status} ${res.text}`);
}

export function chat(p: TestPlatform, token: string | undefined, body: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
  return p.call('POST', COMPLETIONS, { ...(token !== undefined ? { token } : {}), body, headers });
}

/** A turn that must succeed; returns the parsed completion. */
export async function turn(
  p: TestPlatform,
  w: Pick<ChatWorld, 'chatKey' | 'appNameId'>,
  content: string | { role: string; content: string }[],
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const messages = typeof content === 'string' ? [{ role: 'user', content }] : content;
  const res = await chat(p, w.chatKey, { model: w.appNameId, messages, ...extra }, headers);
  expect(res.status, res.text).toBe(200);
  return res.body as {
    chatSessionId: string;
    id: string;
    created: number;
    choices: { message: { content: string }; finish_reason: string }[];
    usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  };
}

/** Area B's error body: exactly `{ error: <non-empty string> }`. */
export function expectChatError(res: TestResponse, status: number, message?: RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(res.body ?? {})).toEqual(['error']);
  expect(typeof res.body.error).toBe('string');
  expect(res.body.error.length).toBeGreaterThan(0);
  if (message) expect(res.body.error).toMatch(message);
}

/** The `data:` payloads of an SSE body, in order (`[DONE]` kept as the string). */
export function sseData(text: string): string[] {
  expect(text.endsWith('\n\n'), 'SSE body ends with a blank line').toBe(true);
  return text
    .split('\n\n')
    .filter((e) => e.length > 0)
    .map((event) => {
      expect(event.startsWith('data: '), event).toBe(true);
      return event.slice('data: '.length);
    });
}

/**
 * Tools for the chat turn without an MCP server: offers `lookup_order` (answers `Order <id>: shipped`) and
 * `broken_tool` (answers an error result) on every connection, and records what it was called with.
 */
export class ScriptedTools implements ToolProvider {
  readonly calls: { connection: string; variables: Record<string, string>; name: string; input: Record<string, unknown> }[] = [];

  async listTools(connections: readonly McpConnection[]): Promise<ListedTools> {
    if (connections.length === 0) return { tools: [], unavailable: [] };
    const connection = connections[0]!.name;
    return {
      tools: [
        {
          connection,
          spec: { name: 'lookup_order', description: 'Looks up an order', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } } },
        },
        { connection, spec: { name: 'broken_tool', description: 'Always fails', inputSchema: { type: 'object' } } },
      ],
      unavailable: [],
    };
  }

  async callTool(
    connection: McpConnection,
    variables: Readonly<Record<string, string>>,
    call: { name: string; input: Record<string, unknown> },
  ): Promise<ToolCallResult> {
    this.calls.push({ connection: connection.name, variables: { ...variables }, name: call.name, input: call.input });
    if (call.name === 'broken_tool') return { content: 'the CRM is down', isError: true };
    return { content: `Order ${String(call.input.orderId)}: shipped`, isError: false };
  }
}
