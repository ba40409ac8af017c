import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { ORG_SCOPES } from '../../kernel/domain/scopes';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { getExportJob } from '../app/export-jobs';
import { EXPORT_CONSOLE_REQUESTS } from '../openapi/export-console-requests';
import { EXPORT_ROUTES } from '../export-routes';
import { consoleExportJobProductionDeps, type ConsoleExportJobDeps } from '../console-export-wiring';
import { consoleExportJob } from './console-export-presenters';

/** GET /console/v1/orgs/{orgId}/exports/{exportId}: the job's state, and once completed its files with download links valid for an hour. */
export const createHandler = (deps: ConsoleExportJobDeps) =>
  httpRoute(EXPORT_ROUTES.consoleExportGet, deps, async (req) => {
    const { path } = await readRequest(EXPORT_CONSOLE_REQUESTS.consoleExportGet, req, { queryPolicy: strictQuery });
    const view = await getExportJob(deps, { orgId: consoleOrgOf(req).orgId, jobId: path.exportId, scopes: ORG_SCOPES });
    return { status: 200, body: { data: consoleExportJob(view) } };
  });

export const handler = lambdaHandler(createHandler, consoleExportJobProductionDeps);
