/**
 * LEAN ROUTE BUNDLES: a route's function carries only the clients its route uses, and a chat turn's
 * function loads its heaviest adapters (Bedrock's client, the MCP SDK, the document parsers) on first
 * use. Bundled with esbuild as AppFunction bundles them (bench/lambda-esbuild.ts, nothing written).
 * `carried`: the package or module has bytes in the bundle. `eager`: it is reached from the entry by
 * static imports alone, so it is evaluated at the cold start; behind an `import()` it is carried but not
 * evaluated until a request needs it. `loaded`: it has bytes in index.mjs or a chunk index.mjs imports
 * statically, so a cold start reads and compiles it; code splitting keeps that to the eager ones.
 */
import { resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { coldStartOutputs, lambdaEsbuildOptions } from '../../bench/lambda-esbuild';

const ROOT = resolve(import.meta.dirname, '../..');

const HEAVY = {
  apiGateway: /node_modules\/@aws-sdk\/client-api-gateway\//,
  bedrock: /node_modules\/@aws-sdk\/client-bedrock-runtime\//,
  mammoth: /node_modules\/mammoth\//,
  mcp: /node_modules\/@modelcontextprotocol\/sdk\//,
  s3: /node_modules\/@aws-sdk\/client-s3\//,
  sqs: /node_modules\/@aws-sdk\/client-sqs\//,
  unpdf: /node_modules\/unpdf\//,
} as const;
type Heavy = keyof typeof HEAVY;

interface Expected {
  /** Carried, each one; every other heavy client is absent. */
  readonly carried: readonly Heavy[];
  /** Of those, the ones evaluated at a cold start. */
  readonly eager: readonly Heavy[];
}

const EXPECTED: Record<string, Expected> = {
  // A turn with files reads them from the bucket; the bucket, Bedrock and MCP wait for a turn that uses them. No background runs: no SQS.
  'functions/chat/http/chat-completions-create.handler.ts': { carried: ['bedrock', 'mcp', 's3'], eager: [] },
  // Background responses are queued; input files are parsed (and stored) when a request has one.
  'functions/chat/http/responses-create.handler.ts': { carried: ['bedrock', 'mammoth', 'mcp', 's3', 'sqs', 'unpdf'], eager: ['sqs'] },
  // The stored-response routes read the table only.
  'functions/chat/http/responses-get.handler.ts': { carried: [], eager: [] },
  'functions/chat/http/responses-delete.handler.ts': { carried: [], eager: [] },
  'functions/chat/http/responses-cancel.handler.ts': { carried: [], eager: [] },
  'functions/chat/http/responses-input-items.handler.ts': { carried: [], eager: [] },
  // The console's key routes reach the gateway's keys, its app deletion the jobs queue, the others neither.
  'functions/tenancy/http/console-org-get.handler.ts': { carried: [], eager: [] },
  'functions/tenancy/http/console-key-rotate.handler.ts': { carried: ['apiGateway'], eager: ['apiGateway'] },
  'functions/tenancy/http/console-app-delete.handler.ts': { carried: ['sqs'], eager: ['sqs'] },
  // Another slice's console route never carries tenancy's key or jobs clients.
  'functions/acp/http/console-products-list.handler.ts': { carried: [], eager: [] },
};

/** The inputs reached from the entry through static imports (`import`, `require`), not `import()`. */
function eagerInputs(metafile: Metafile): Set<string> {
  const entry = Object.keys(metafile.inputs).find((k) => k.endsWith('.handler.ts'))!;
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length) {
    for (const im of metafile.inputs[queue.shift()!]?.imports ?? []) {
      if (im.kind === 'dynamic-import' || seen.has(im.path)) continue;
      seen.add(im.path);
      queue.push(im.path);
    }
  }
  return seen;
}

async function heavyOf(entry: string): Promise<Expected & { loaded: readonly Heavy[] }> {
  const { metafile } = await build({ ...lambdaEsbuildOptions(ROOT, entry, 'out'), write: false });
  // Inputs that contribute no bytes (tree-shaken away) do not count as carried.
  const carried = Object.values(metafile.outputs).flatMap((o) =>
    Object.entries(o.inputs)
      .filter(([, v]) => v.bytesInOutput > 0)
      .map(([k]) => k),
  );
  const eager = [...eagerInputs(metafile)].filter((i) => carried.includes(i));
  const loaded = coldStartOutputs(metafile).flatMap((o) =>
    Object.entries(metafile.outputs[o]!.inputs)
      .filter(([, v]) => v.bytesInOutput > 0)
      .map(([k]) => k),
  );
  const names = (Object.keys(HEAVY) as Heavy[]).sort();
  return {
    carried: names.filter((h) => carried.some((i) => HEAVY[h].test(i))),
    eager: names.filter((h) => eager.some((i) => HEAVY[h].test(i))),
    loaded: names.filter((h) => loaded.some((i) => HEAVY[h].test(i))),
  };
}

describe('route function bundles', () => {
  it.each(Object.entries(EXPECTED))('%s carries exactly the clients its route uses, and evaluates the lazy ones on first use', async (entry, expected) => {
    const eager = [...expected.eager].sort();
    expect(await heavyOf(entry)).toEqual({ carried: [...expected.carried].sort(), eager, loaded: eager });
  });
});
