/**
 * The requests of area A's console routes (an org's sessions, a transcript, bulk exports), keyed by
 * route id. Every query parameter is declared (the console refuses others: `strictQuery`); values are
 * read by area A's own rules, with the console's limits (a page of at most 100, no clamping).
 * Plain objects, no zod.
 */
import { badRequest } from '../../kernel/domain/errors';
import { param, uuidPathId, type RequestDeclaration } from '../../kernel/http/request-declaration';
import { parseTimestampParam, parseTokenParam, parseUuidParam } from '../domain/export-params';
import { EXPORT_JOB_REQUESTS } from './export-job-requests';

/** The largest console page of sessions or exports. */
export const CONSOLE_PAGE_MAX = 100;

const org = { orgId: uuidPathId('orgId') };
const limit = param(
  { type: 'integer', minimum: 1, maximum: CONSOLE_PAGE_MAX, description: `Rows per page (default 50, at most ${CONSOLE_PAGE_MAX})` },
  (raw) => {
    const n = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(n >= 1 && n <= CONSOLE_PAGE_MAX)) throw badRequest(`Invalid limit: must be from 1 to ${CONSOLE_PAGE_MAX}`);
    return n;
  },
);
const cursor = param({ maxLength: 1024, description: 'The `nextCursor` of the previous page of the same request' }, (raw) => {
  if (raw.length > 1024) throw badRequest('Invalid cursor');
  return raw;
});
const iso = (name: string, description: string) =>
  param({ format: 'date-time', description: `An ISO 8601 timestamp with Z or an offset; ${description}` }, (raw) => parseTimestampParam(name, raw)!);

export const EXPORT_CONSOLE_REQUESTS = {
  consoleSessionsList: {
    path: org,
    query: {
      limit,
      cursor,
      appId: param({ format: 'uuid', description: 'Only this app’s sessions (an app of another org gives none)' }, (raw) => parseUuidParam('appId', raw)!),
      from: iso('from', 'only sessions whose last activity is at or after it'),
      to: iso('to', 'only sessions whose last activity is before it'),
      externalId: param(
        { maxLength: 512, description: 'Only sessions with this external id (`external_id`), matched exactly' },
        (raw) => parseTokenParam('externalId', raw, 512)!,
      ),
      consumerEmail: param({ format: 'email', maxLength: 320, description: 'Only the sessions of the consumer with this e-mail address (any case)' }, (raw) => {
        if (raw.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(raw)) throw badRequest('Invalid consumerEmail: must be an e-mail address');
        return raw;
      }),
    },
  },
  consoleSessionGet: { path: { ...org, sessionId: uuidPathId('sessionId') } },
  consoleExportCreate: { path: org, body: EXPORT_JOB_REQUESTS.orgExportCreate.body },
  consoleExportsList: { path: org, query: { limit, cursor } },
  consoleExportGet: { path: { ...org, exportId: uuidPathId('exportId') } },
} as const satisfies Readonly<Record<string, RequestDeclaration>>;
