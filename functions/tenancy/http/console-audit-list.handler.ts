import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { listAuditRecords } from '../app/read-audit-log';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleAuditRecord } from './console-presenters';

/** GET /console/v1/orgs/{orgId}/audit-log: who changed what, newest first, filtered by actor, action or resource type. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleAuditList, deps, async (req) => {
    const { query } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleAuditList, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    const filter = {
      ...(query.actor !== undefined ? { actorId: query.actor } : {}),
      ...(query.action !== undefined ? { action: query.action } : {}),
      ...(query.resourceType !== undefined ? { resourceType: query.resourceType } : {}),
    };
    const page = await listAuditRecords(deps, {
      orgId,
      filter,
      by: caller.acting.by,
      ...(query.limit ? { limit: query.limit } : {}),
      ...(query.cursor ? { cursor: query.cursor } : {}),
    });
    return { status: 200, body: { data: page.records.map(consoleAuditRecord), nextCursor: page.cursor ?? null } };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
