/**
 * Every change made through the console or the admin API reaches an org's audit log: the kit records a
 * successful state-changing call of those callers under the org of its path, and a route whose path
 * names no org must say which org it changed (`audit: { orgId }` in its answer, written by its handler
 * or a helper of an `http/` folder it calls). Only platform-wide operator actions belong to no org.
 * The behaviour itself is tested over HTTP (console-tenancy, console-acp, console-conversations tests).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';

const FUNCTIONS = resolve(dirname(fileURLToPath(import.meta.url)), '../../functions');

/** Operator actions on the platform as a whole: a release-notes period, a scheduled job run now. */
const PLATFORM_WIDE = ['adminReleasePeriodPublish', 'adminJobRun'];

/** The handler's text and that of the `http/` helpers it imports (the shared key-issuing answer, say). */
function handlerText(handler: string): string {
  const file = join(FUNCTIONS, `${handler}.handler.ts`);
  const text = readFileSync(file, 'utf8');
  const helpers = [...text.matchAll(/from '(\.{1,2}\/[^']*http\/[^']+|\.\/[^']+)'/g)].map((m) => readFileSync(resolve(dirname(file), `${m[1]}.ts`), 'utf8'));
  return [text, ...helpers].join('\n');
}

describe('the audit log covers every change', () => {
  const changes = ROUTES.filter((r) => (r.auth === 'iam' || r.auth === 'consoleSession') && r.method !== 'GET');

  it.each(changes.filter((r) => !r.path.includes('{orgId}')).map((r) => [r.id, r] as const))(
    '%s names the org it changed, or is a platform-wide operator action',
    (id, route) => {
      if (PLATFORM_WIDE.includes(id)) return;
      expect(handlerText(route.handler), `${id}: answer with audit: { orgId } (or 'recorded' when its use case writes the record)`).toMatch(
        /audit: ('recorded'|\{)/,
      );
    },
  );

  it('keeps the platform-wide list to routes that exist and name no org', () => {
    for (const id of PLATFORM_WIDE) expect(changes.find((r) => r.id === id)?.path, id).not.toContain('{orgId}');
  });
});
