import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { ORG_SCOPES } from '../../kernel/domain/scopes';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { createExportJob } from '../app/export-jobs';
import { EXPORT_CONSOLE_REQUESTS } from '../openapi/export-console-requests';
import { EXPORT_ROUTES } from '../export-routes';
import { consoleExportJobProductionDeps, type ConsoleExportJobDeps } from '../console-export-wiring';
import { consoleExportJob } from './console-export-presenters';

/**
 * POST /console/v1/orgs/{orgId}/exports: the org key's bulk snapshot export, as a key with every scope
 * starts it (an empty body: every list); poll GET .../exports/{exportId} for its files.
 */
export const createHandler = (deps: ConsoleExportJobDeps) =>
  httpRoute(EXPORT_ROUTES.consoleExportCreate, deps, async (req) => {
    const { body } = await readRequest(EXPORT_CONSOLE_REQUESTS.consoleExportCreate, req, { queryPolicy: strictQuery });
    const job = await createExportJob(deps, { orgId: consoleOrgOf(req).orgId, scopes: ORG_SCOPES, body });
    const data = consoleExportJob({ job, urls: [], urlsExpireAtUs: 0 });
    return { status: 201, body: { data }, audit: { resource: { type: 'export', id: job.id }, after: { lists: job.lists } } };
  });

export const handler = lambdaHandler(createHandler, consoleExportJobProductionDeps);
