/**
 * A real MCP server (Streamable HTTP, stateless) on loopback, built with @modelcontextprotocol/sdk:
 * `lookup_order` answers `Order <id>: shipped`, `failing_tool` throws. Records the HTTP headers of every
 * request it receives.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

export interface McpTestServer {
  readonly url: string;
  /** Every HTTP request received, in order. */
  readonly requests: { method: string; headers: IncomingHttpHeaders }[];
  /** Tool calls received, in order. */
  readonly toolCalls: { name: string; args: unknown }[];
  close(): Promise<void>;
}

function buildServer(toolCalls: McpTestServer['toolCalls']): McpServer {
  const server = new McpServer({ name: 'crm-test', version: '1.0.0' });
  server.registerTool('lookup_order', { description: 'Looks up an order by id', inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
    toolCalls.push({ name: 'lookup_order', args: { orderId } });
    return { content: [{ type: 'text', text: `Order ${orderId}: shipped` }] };
  });
  server.registerTool('failing_tool', { description: 'Always fails' }, async () => {
    toolCalls.push({ name: 'failing_tool', args: {} });
    throw new Error('CRM backend exploded');
  });
  return server;
}

/** `tls`: served over HTTPS with this key and certificate (a test CA's), its URL naming `host`. */
export async function startMcpTestServer(tls?: { readonly key: string; readonly cert: string; readonly host: string }): Promise<McpTestServer> {
  const requests: McpTestServer['requests'] = [];
  const toolCalls: McpTestServer['toolCalls'] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? '', headers: { ...req.headers } });
    // Stateless mode: a fresh server and transport per request.
    const mcp = buildServer(toolCalls);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  };
  const http: Server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, handle) : createServer(handle);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: tls ? `https://${tls.host}:${port}/mcp` : `http://127.0.0.1:${port}/mcp`,
    requests,
    toolCalls,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
