/**
 * External tools over MCP's Streamable HTTP transport (@modelcontextprotocol/sdk). Each operation
 * connects with the connection's header templates rendered from the session variables, and closes;
 * redirects are not followed (a tool server cannot bounce the rendered headers elsewhere).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpConnection } from '../domain/app';
import { renderHeaders } from '../domain/header-templates';
import type { ConnectedTool, ToolCallResult, ToolGateway } from '../ports/chat';

const CLIENT_INFO = { name: 'application-platform-api', version: '1.0.0' };

export class McpToolGateway implements ToolGateway {
  constructor(private readonly timeoutMs = 30_000) {}

  private async withClient<T>(connection: McpConnection, variables: Readonly<Record<string, string>>, fn: (c: Client) => Promise<T>): Promise<T> {
    const transport = new StreamableHTTPClientTransport(new URL(connection.url), {
      requestInit: { headers: renderHeaders(connection.headers, variables), redirect: 'error' },
    });
    const client = new Client(CLIENT_INFO);
    await client.connect(transport, { timeout: this.timeoutMs });
    try {
      return await fn(client);
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  async listTools(connections: readonly McpConnection[], variables: Readonly<Record<string, string>>): Promise<ConnectedTool[]> {
    const seen = new Set<string>();
    const out: ConnectedTool[] = [];
    for (const connection of connections) {
      const listed = await this.withClient(connection, variables, (c) => c.listTools(undefined, { timeout: this.timeoutMs }));
      for (const tool of listed.tools) {
        // The first connection to offer a name keeps it: the model calls tools by name alone.
        if (seen.has(tool.name)) continue;
        seen.add(tool.name);
        out.push({
          connection: connection.name,
          spec: { name: tool.name, description: tool.description ?? tool.name, inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown> },
        });
      }
    }
    return out;
  }

  async callTool(connection: McpConnection, variables: Readonly<Record<string, string>>, call: { name: string; input: Record<string, unknown> }): Promise<ToolCallResult> {
    const result = await this.withClient(connection, variables, (c) => c.callTool({ name: call.name, arguments: call.input }, undefined, { timeout: this.timeoutMs }));
    const parts = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
    const text = parts.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}]`)).join('\n');
    return { content: text, isError: result.isError === true };
  }
}
