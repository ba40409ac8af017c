import { createExportJob } from '../app/export-jobs';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { EXPORT_JOB_REQUESTS } from '../openapi/export-job-requests';
import { exportJobBody } from './export-job-presenter';
import { exportJobProductionDeps, type ExportJobFunctionDeps } from '../export-wiring';
import { EXPORT_ROUTES } from '../export-routes';

/**
 * POST /api/v1/org/exports: a bulk snapshot of the org's lists as of now minus the visibility delay,
 * written off the request path; poll GET /exports/{id} for its files. An empty body asks for every
 * list the key may read.
 */
export const createHandler = (deps: ExportJobFunctionDeps) =>
  httpRoute(EXPORT_ROUTES.orgExportCreate, deps, async (req) => {
    const { body } = await readRequest(EXPORT_JOB_REQUESTS.orgExportCreate, req);
    const job = await createExportJob(deps, { orgId: req.principal!.orgId, scopes: req.principal!.scopes, body });
    return { status: 202, body: { data: exportJobBody({ job, urls: [], urlsExpireAtUs: 0 }) } };
  });

export const handler = lambdaHandler(createHandler, exportJobProductionDeps);
