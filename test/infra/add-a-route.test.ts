/**
 * A new route of an area is one folder's change (README "Add a route"). In a copy of the source tree,
 * a route is added to area D by writing only under functions/release-notes/: a route-table entry, a
 * handler module and an entry of the area's OpenAPI fragment. The copy's CDK app then has the route's
 * API Gateway method and function, the copy's local server answers it, and the copy's API reference
 * documents it; the repository's own tree has none of the three.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_BUILD_DIR } from '../../functions/local/console-build';
import { ROUTES } from '../../functions/routes';
import { newTestApp, resourcesOfType, TEST_ENV } from './platform-fixture';

const ROOT = resolve(import.meta.dirname, '../..');
const AREA = 'functions/release-notes';
const PATH = '/api/v1/release-notes/ping';

/** Every file the new route writes, all under the area's folder. */
const WRITTEN: Record<string, (current: string) => string> = {
  [`${AREA}/release-notes-routes.ts`]: (table) =>
    table.replace(
      /\n\}\);\n$/,
      `
  releaseNotesPing: {
    method: 'GET',
    path: \`\${RELEASE_NOTES}/ping\`,
    handler: 'release-notes/http/release-notes-ping',
    area: 'releaseNotes',
    auth: 'public',
    rateLimit: 'releaseNotesIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
});
`,
    ),
  [`${AREA}/http/release-notes-ping.handler.ts`]: () => `import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { releaseNotesReadProductionDeps, type ReleaseNotesReadDeps } from '../release-notes-wiring';
import { RELEASE_NOTES_ROUTES } from '../release-notes-routes';

export const createHandler = (deps: ReleaseNotesReadDeps) =>
  httpRoute(RELEASE_NOTES_ROUTES.releaseNotesPing, deps, async () => ({ status: 200, body: { pong: true } }));

export const handler = lambdaHandler(createHandler, releaseNotesReadProductionDeps);
`,
  [`${AREA}/openapi/release-notes-operations.ts`]: (fragment) =>
    fragment.replace(
      /\n\};\n$/,
      `
  releaseNotesPing: { tag: 'Release notes', summary: 'Ping', ok: { status: 200, description: 'Pong' }, errors: [429, 500] },
};
`,
    ),
};

let copy: string;

beforeAll(() => {
  copy = mkdtempSync(join(ROOT, '.add-route-'));
  for (const entry of ['functions', 'lib', 'docker', 'package.json', 'package-lock.json']) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  for (const [file, write] of Object.entries(WRITTEN)) {
    let current = '';
    try {
      current = readFileSync(join(copy, file), 'utf8');
    } catch {
      // a new file
    }
    const next = write(current);
    expect(next, file).not.toBe(current);
    writeFileSync(join(copy, file), next);
  }
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('a route added from one area’s files alone', () => {
  it('writes only under the area’s folder, and the repository has no such route', () => {
    expect(Object.keys(WRITTEN).every((f) => f.startsWith(`${AREA}/`))).toBe(true);
    expect(ROUTES.some((r) => r.path === PATH)).toBe(false);
  });

  it('gets its API Gateway method and its function in the area’s stack', async () => {
    const { addPlatformStacks } = (await import(join(copy, 'lib/platform.ts'))) as typeof import('../../lib/platform');
    const { stageConfig } = (await import(join(copy, 'lib/stage-config.ts'))) as typeof import('../../lib/stage-config');
    // The copy holds no console: its front door ships the repository's build.
    const stacks = addPlatformStacks(newTestApp(), { config: stageConfig('dev'), env: TEST_ENV, consoleBuildDir: CONSOLE_BUILD_DIR });
    const template = Template.fromStack(stacks.areas.get('releaseNotes')!);
    const resources = Object.entries(resourcesOfType(template, 'AWS::ApiGateway::Resource'));
    const ping = resources.find(([, r]) => r.Properties!.PathPart === 'ping');
    expect(ping).toBeDefined();
    template.hasResourceProperties('AWS::ApiGateway::Method', { HttpMethod: 'GET', ResourceId: { Ref: ping![0] } });
    template.hasResourceProperties('AWS::Lambda::Function', { Description: 'http/release-notes-ping' });
  });

  it('is served by the local server', async () => {
    const { startPlatform } = (await import(join(copy, 'functions/local/local-platform.ts'))) as typeof import('../../functions/local/local-platform');
    const dataDir = mkdtempSync(join(copy, 'data-'));
    const platform = await startPlatform({ dataDir, persist: false, timers: false, seed: false, logger: new Logger({ logLevel: 'SILENT' }) });
    try {
      const res = await fetch(platform.baseUrl + PATH);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ pong: true });
    } finally {
      await platform.stop();
    }
  });

  it('is in the API reference', async () => {
    const { buildOpenApiDocument } = (await import(join(copy, 'functions/openapi/document.ts'))) as typeof import('../../functions/openapi/document');
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, { summary: string }>>;
    expect(paths[PATH]?.get?.summary).toBe('Ping');
  });
});
