/**
 * External tools over MCP's Streamable HTTP transport (@modelcontextprotocol/sdk). Each operation
 * connects with the connection's header templates rendered from the session variables, and closes;
 * redirects are not followed (a tool server cannot bounce the rendered headers elsewhere).
 * Listing asks every connection at once, each bounded by its own timeout: a connection that is down,
 * hangs or answers an error is unavailable for the turn, and the others still serve it.
 * The SDK (with its schema library and JSON Schema validator) is imported on the first connection, so
 * a turn of an app with no connections never evaluates it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { renderHeaders } from '../domain/header-templates';
import type { ConnectedTool, ListedTools, ToolCallResult, ToolConnection, ToolProvider } from '../app/chat-ports';
import { pinnedFetch } from './pinned-fetch';
import { rootCertificates } from 'node:tls';

const CLIENT_INFO = { name: 'application-platform-api', version: '1.0.0' };

/** Listing tools happens before every turn's first model call: a slow server may not hold the turn up long. */
export const MCP_LIST_TIMEOUT_MS = 5_000;
/** One tool call (a tool may do real work). */
export const MCP_CALL_TIMEOUT_MS = 30_000;

/** Why a connection failed, without anything of the request (its rendered headers carry variable values). */
function reasonOf(err: unknown): string {
  const e = err as { name?: string; message?: string; code?: unknown; cause?: { code?: string } };
  const code = e.cause?.code ?? (typeof e.code === 'string' ? e.code : undefined);
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || /timed? ?out/i.test(e.message ?? '')) return 'timed out';
  if (code) return `unreachable (${code})`;
  return (e.message ?? 'failed').split('\n')[0]!.slice(0, 200);
}

let sdk: Promise<[typeof import('@modelcontextprotocol/sdk/client/index.js'), typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js')]> | undefined;

/** The SDK's client and transport, imported once; a failed import is tried again by the next connection. */
function mcpSdk() {
  sdk ??= Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/streamableHttp.js')]).catch(
    (err: unknown) => {
      sdk = undefined;
      throw err;
    },
  );
  return sdk;
}

export class McpToolProvider implements ToolProvider {
  private readonly ca?: readonly string[];

  /** `trustedCaPem`: a CA trusted beside the system's for pinned connections, set only by test wiring. */
  constructor(
    private readonly timeoutMs = MCP_CALL_TIMEOUT_MS,
    private readonly listTimeoutMs = MCP_LIST_TIMEOUT_MS,
    options: { readonly trustedCaPem?: string } = {},
  ) {
    if (options.trustedCaPem) this.ca = [...rootCertificates, options.trustedCaPem];
  }

  private async withClient<T>(
    connection: ToolConnection,
    variables: Readonly<Record<string, string>>,
    timeoutMs: number,
    fn: (c: Client) => Promise<T>,
  ): Promise<T> {
    const [{ Client }, { StreamableHTTPClientTransport }] = await mcpSdk();
    // One deadline for the whole exchange (connect, initialize, the request), which also aborts the HTTP requests.
    const signal = AbortSignal.timeout(timeoutMs);
    const transport = new StreamableHTTPClientTransport(new URL(connection.url), {
      requestInit: { headers: renderHeaders(connection.headers, variables), redirect: 'error', signal },
      // A server a request named goes only to the addresses its SSRF check accepted.
      ...(connection.addresses ? { fetch: pinnedFetch(connection.addresses, this.ca) } : {}),
    });
    const client = new Client(CLIENT_INFO);
    const deadline = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
    try {
      await Promise.race([client.connect(transport, { timeout: timeoutMs }), deadline]);
      return await Promise.race([fn(client), deadline]);
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  async listTools(connections: readonly ToolConnection[], variables: Readonly<Record<string, string>>): Promise<ListedTools> {
    const seen = new Set<string>();
    const tools: ConnectedTool[] = [];
    const unavailable: { connection: string; reason: string }[] = [];
    const results = await Promise.allSettled(
      connections.map((connection) =>
        this.withClient(connection, variables, this.listTimeoutMs, (c) => c.listTools(undefined, { timeout: this.listTimeoutMs })),
      ),
    );
    for (const [i, settled] of results.entries()) {
      const connection = connections[i]!;
      if (settled.status === 'rejected') {
        unavailable.push({ connection: connection.name, reason: reasonOf(settled.reason) });
        continue;
      }
      const listed = settled.value;
      for (const tool of listed.tools) {
        // The first connection to offer a name keeps it: the model calls tools by name alone.
        if (seen.has(tool.name)) continue;
        seen.add(tool.name);
        tools.push({
          connection: connection.name,
          spec: {
            name: tool.name,
            description: tool.description ?? tool.name,
            inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
          },
        });
      }
    }
    return { tools, unavailable };
  }

  async callTool(
    connection: ToolConnection,
    variables: Readonly<Record<string, string>>,
    call: { name: string; input: Record<string, unknown> },
  ): Promise<ToolCallResult> {
    const result = await this.withClient(connection, variables, this.timeoutMs, (c) =>
      c.callTool({ name: call.name, arguments: call.input }, undefined, { timeout: this.timeoutMs }),
    );
    const parts = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
    const text = parts.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}]`)).join('\n');
    return { content: text, isError: result.isError === true };
  }
}
