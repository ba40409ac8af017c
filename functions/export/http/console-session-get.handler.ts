import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { getSessionTranscript } from '../app/export-lists';
import { EXPORT_CONSOLE_REQUESTS } from '../openapi/export-console-requests';
import { EXPORT_ROUTES } from '../export-routes';
import { consoleExportProductionDeps, type ConsoleExportDeps } from '../console-export-wiring';
import { consoleTranscript } from './console-export-presenters';

/**
 * GET /console/v1/orgs/{orgId}/sessions/{sessionId}: the transcript, as the export's messages list gives
 * it with tool markers (none under the app's Zero Data Retention); a session of another org is 404.
 */
export const createHandler = (deps: ConsoleExportDeps) =>
  httpRoute(EXPORT_ROUTES.consoleSessionGet, deps, async (req) => {
    const { path } = await readRequest(EXPORT_CONSOLE_REQUESTS.consoleSessionGet, req, { queryPolicy: strictQuery });
    const transcript = await getSessionTranscript(deps, { orgId: consoleOrgOf(req).orgId, sessionId: path.sessionId });
    return { status: 200, body: { data: consoleTranscript(transcript) } };
  });

export const handler = lambdaHandler(createHandler, consoleExportProductionDeps);
