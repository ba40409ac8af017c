import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { listExportJobs } from '../app/export-jobs';
import { DEFAULT_LIMIT } from '../domain/export-params';
import { EXPORT_CONSOLE_REQUESTS } from '../openapi/export-console-requests';
import { EXPORT_ROUTES } from '../export-routes';
import { consoleExportJobProductionDeps, type ConsoleExportJobDeps } from '../console-export-wiring';
import { consoleExportJobSummary, exportJobCursor, exportJobPosition } from './console-export-presenters';

/** GET /console/v1/orgs/{orgId}/exports: the org's bulk exports (kept 7 days), newest first, without download links. */
export const createHandler = (deps: ConsoleExportJobDeps) =>
  httpRoute(EXPORT_ROUTES.consoleExportsList, deps, async (req) => {
    const { query } = await readRequest(EXPORT_CONSOLE_REQUESTS.consoleExportsList, req, { queryPolicy: strictQuery });
    const page = await listExportJobs(deps, {
      orgId: consoleOrgOf(req).orgId,
      limit: query.limit ?? DEFAULT_LIMIT,
      ...(query.cursor !== undefined ? { after: exportJobPosition(query.cursor) } : {}),
    });
    const last = page.jobs.at(-1);
    const data = page.jobs.map(consoleExportJobSummary);
    return { status: 200, body: { data, nextCursor: page.hasMore && last ? exportJobCursor(last) : null } };
  });

export const handler = lambdaHandler(createHandler, consoleExportJobProductionDeps);
