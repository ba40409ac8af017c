import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { can } from '../../tenancy/domain/roles';
import { listConsoleSessions } from '../app/console-session-list';
import { DEFAULT_LIMIT } from '../domain/export-params';
import { EXPORT_CONSOLE_REQUESTS } from '../openapi/export-console-requests';
import { EXPORT_ROUTES } from '../export-routes';
import { consoleExportProductionDeps, type ConsoleExportDeps } from '../console-export-wiring';
import { consoleSession } from './console-export-presenters';

/**
 * GET /console/v1/orgs/{orgId}/sessions: the org's sessions, newest activity first, filtered by app, a
 * window of last activity, an external id or a consumer's e-mail address; never a message.
 */
export const createHandler = (deps: ConsoleExportDeps) =>
  httpRoute(EXPORT_ROUTES.consoleSessionsList, deps, async (req) => {
    const { query } = await readRequest(EXPORT_CONSOLE_REQUESTS.consoleSessionsList, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    const page = await listConsoleSessions(deps, {
      orgId,
      limit: query.limit ?? DEFAULT_LIMIT,
      ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
      ...(query.appId !== undefined ? { appId: query.appId } : {}),
      ...(query.from !== undefined ? { fromUs: query.from } : {}),
      ...(query.to !== undefined ? { toUs: query.to } : {}),
      ...(query.externalId !== undefined ? { externalId: query.externalId } : {}),
      ...(query.consumerEmail !== undefined ? { consumerEmail: query.consumerEmail } : {}),
    });
    const showTitle = can(caller.role!, 'transcripts.read');
    return { status: 200, body: { data: page.rows.map((s) => consoleSession(s, showTitle)), nextCursor: page.hasMore ? page.nextCursor : null } };
  });

export const handler = lambdaHandler(createHandler, consoleExportProductionDeps);
