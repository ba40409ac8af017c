/**
 * How many files a reader opens to follow one plain chat completion (first turn, no Idempotency-Key,
 * files, variables or consumer) from its handler to its DynamoDB calls: at most 25. PATH lists them:
 * the entry, the kit, the request declaration, the turn's use cases, the wiring that picks each port's
 * adapter, and the adapters that call DynamoDB. OFF_PATH lists every other module the handler loads,
 * with why it is not on the way. The two lists together must be exactly what the handler imports
 * (value imports, followed from module to module), so the list cannot drift silently: a module split
 * off a path module, or newly imported by one, fails here until it is put on one list or the other, and
 * a path that grows past the limit fails too. Imports are read with a regular expression, as in
 * layers.test.ts; `import type` and `export type` are erased and not followed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FUNCTIONS = resolve(dirname(fileURLToPath(import.meta.url)), '../../functions');
const HANDLER = 'chat/http/chat-completions-create.handler.ts';
const MAX_PATH_FILES = 25;

/** The files a plain turn passes through on its way to DynamoDB, in the order a reader meets them. */
const PATH = [
  'chat/http/chat-completions-create.handler.ts',
  'kernel/http/kit.ts',
  'kernel/http/kit-request.ts',
  'kernel/http/request-declaration.ts',
  'chat/openapi/chat-requests.ts',
  'chat/http/chat-turn-route.ts',
  'chat/http/chat-presenters.ts',
  'chat/app/prepare-chat-turn.ts',
  'chat/app/run-chat-turn.ts',
  'chat/app/record-session-activity.ts',
  'chat/wiring/chat-wiring.ts',
  'conversations/conversation-wiring.ts',
  'tenancy/wiring/core-wiring.ts',
  'kernel/wiring/kernel-wiring.ts',
  'kernel/adapters/aws-clients.ts',
  'tenancy/app/admit-request.ts',
  'tenancy/app/record-last-use.ts',
  'kernel/adapters/dynamo-rate-counter.ts',
  'tenancy/adapters/dynamo-credential-store.ts',
  'tenancy/adapters/dynamo-org-store.ts',
  'tenancy/adapters/dynamo-app-store.ts',
  'conversations/adapters/dynamo-session-store.ts',
  'conversations/adapters/dynamo-session-items.ts',
  'conversations/adapters/dynamo-usage-store.ts',
  'kernel/adapters/dynamo-batch.ts',
];

/** What the handler loads besides the path, and why a reader following a plain turn does not open it. */
const OFF_PATH = [
  // Pure rules and vocabulary the path reads but does not pass through: domain modules, the route tables and their vocabulary, the environment's names.
  'chat/chat-routes.ts',
  'chat/domain/answer-limit.ts',
  'chat/domain/chat-request.ts',
  'chat/domain/client-tools.ts',
  'chat/domain/header-templates.ts',
  'chat/domain/json-schema-check.ts',
  'chat/domain/model.ts',
  'chat/domain/request-fields.ts',
  'chat/domain/response-ids.ts',
  'chat/domain/responses-file-parts.ts',
  'chat/domain/responses-input.ts',
  'chat/domain/responses-options.ts',
  'chat/domain/responses-request.ts',
  'chat/domain/responses-tools.ts',
  'chat/domain/structured-output.ts',
  'chat/domain/turn-fields.ts',
  'conversations/domain/file.ts',
  'conversations/domain/session.ts',
  'kernel/adapters/table-design.ts',
  'kernel/domain/admin-api-base.ts',
  'kernel/domain/auth-messages.ts',
  'kernel/domain/body-limits.ts',
  'kernel/domain/digest.ts',
  'kernel/domain/error-bodies.ts',
  'kernel/domain/errors.ts',
  'kernel/domain/http-headers.ts',
  'kernel/domain/ids.ts',
  'kernel/domain/rate-limits.ts',
  'kernel/domain/request-rule.ts',
  'kernel/domain/scopes.ts',
  'kernel/domain/time.ts',
  'kernel/domain/utf8.ts',
  'kernel/domain/webhook-callback.ts',
  'kernel/env.ts',
  'kernel/http/api-gateway-contract.ts',
  'kernel/route-vocabulary.ts',
  'tenancy/domain/app.ts',
  'tenancy/domain/credentials.ts',
  'tenancy/domain/key-grant.ts',
  'tenancy/domain/pricing.ts',
  // Ports a plain turn calls that are not DynamoDB: the clock, ids and the model.
  'chat/adapters/bedrock-chat-model.ts',
  'chat/adapters/lazy-chat-model.ts',
  'chat/adapters/model-catalog.ts',
  'chat/adapters/offline-chat-model.ts',
  'chat/adapters/offline-json-example.ts',
  'chat/adapters/openai-compatible-chat-model.ts',
  'kernel/adapters/crypto-ids.ts',
  'kernel/adapters/system-clock.ts',
  // Imported for what a plain turn does not do: an Idempotency-Key, files, variables, a consumer, MCP tools, org keys, the admin and job wiring a shared wiring module also builds.
  'chat/adapters/mcp-tool-provider.ts',
  // The SSE headers and the drain of a turn whose client left: a streamed answer's, not a plain one's.
  'chat/http/turn-streams.ts',
  // The MCP client's fetch pinned to a request-named server's checked addresses.
  'chat/adapters/pinned-fetch.ts',
  'kernel/adapters/pinned-https.ts',
  // The SSRF check of the MCP servers a Responses request names (its resolver and wiring), and the store of its responses.
  'kernel/adapters/dns-host-resolver.ts',
  'kernel/wiring/outbound-network-wiring.ts',
  'chat/adapters/dynamo-response-store.ts',
  'chat/app/chat-attachments.ts',
  'conversations/adapters/dynamo-consumer-store.ts',
  'conversations/adapters/dynamo-file-store.ts',
  'conversations/adapters/dynamo-session-removal.ts',
  'conversations/adapters/dynamo-session-variable-store.ts',
  'conversations/adapters/dynamo-tombstone-store.ts',
  'conversations/adapters/lazy-object-store.ts',
  'conversations/object-store-wiring.ts',
  'kernel/adapters/load-once.ts',
  'conversations/adapters/s3-object-store.ts',
  'conversations/app/file-ports.ts',
  'kernel/adapters/aws-queue-clients.ts',
  'kernel/adapters/aws-s3-client.ts',
  'kernel/adapters/dynamo-idempotency-store.ts',
  'kernel/adapters/sqs-job-queue.ts',
  'kernel/wiring/job-queue-wiring.ts',
  'tenancy/app/authenticate-org-key.ts',
  'tenancy/wiring/admin-wiring.ts',
  // The key list's cursor, which the credential store reads for the console: a turn lists no keys.
  'kernel/domain/position-cursor.ts',
  // The audit trail of the admin functions conversation-wiring also builds: a chat turn records no audit.
  'tenancy/wiring/audit-wiring.ts',
  'tenancy/adapters/dynamo-audit-log.ts',
  'tenancy/app/act-on-org.ts',
  'tenancy/domain/audit.ts',
  'tenancy/domain/roles.ts',
];

const IMPORT = /^[ \t]*(?:import|export)\s+(type\s+)?(?:[^;'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;

/** The modules `file` loads at run time (relative to functions/). */
function valueImports(file: string): string[] {
  const text = readFileSync(join(FUNCTIONS, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    if (m[1]) continue;
    const target = normalize(join(dirname(file), m[2] ?? m[3]!));
    out.push(existsSync(join(FUNCTIONS, `${target}.ts`)) ? `${target}.ts` : target);
  }
  return out.map((p) => relative('.', p).split('\\').join('/'));
}

/** Every module reachable from `start` through value imports, taking only the edges `follow` allows. */
function reachable(start: string, follow: (file: string) => boolean): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of valueImports(file)) if (follow(next)) queue.push(next);
  }
  return seen;
}

describe('the call path of a plain chat completion', () => {
  it(`is at most ${MAX_PATH_FILES} files, each of them there`, () => {
    expect(PATH.filter((f) => !existsSync(join(FUNCTIONS, f)))).toEqual([]);
    expect(new Set(PATH).size).toBe(PATH.length);
    expect(PATH.length).toBeLessThanOrEqual(MAX_PATH_FILES);
  });

  it('names every module the handler loads once, on the path or off it', () => {
    const loaded = [...reachable(HANDLER, () => true)].sort();
    expect(PATH.filter((f) => OFF_PATH.includes(f))).toEqual([]);
    expect([...PATH, ...OFF_PATH].sort()).toEqual(loaded);
  });

  it('is one chain: each path file is reached from the handler through path files only', () => {
    const chained = reachable(HANDLER, (f) => PATH.includes(f));
    expect(PATH.filter((f) => !chained.has(f))).toEqual([]);
  });
});
