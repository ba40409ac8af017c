import { getExportJob } from '../app/export-jobs';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { EXPORT_JOB_REQUESTS } from '../openapi/export-job-requests';
import { exportJobBody } from './export-job-presenter';
import { exportJobProductionDeps, type ExportJobFunctionDeps } from '../export-wiring';
import { EXPORT_ROUTES } from '../export-routes';

/** GET /api/v1/org/exports/{exportId}: the job's state, and once completed its files with download links valid for an hour. */
export const createHandler = (deps: ExportJobFunctionDeps) =>
  httpRoute(EXPORT_ROUTES.orgExportGet, deps, async (req) => {
    const { path } = await readRequest(EXPORT_JOB_REQUESTS.orgExportGet, req);
    const view = await getExportJob(deps, { orgId: req.principal!.orgId, jobId: path.exportId, scopes: req.principal!.scopes });
    return { status: 200, body: { data: exportJobBody(view) } };
  });

export const handler = lambdaHandler(createHandler, exportJobProductionDeps);
