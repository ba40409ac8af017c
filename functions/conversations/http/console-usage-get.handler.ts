import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { usageTotals } from '../app/usage-totals';
import { DAY_US, dayOf } from '../domain/usage-buckets';
import { USAGE_CONSOLE_REQUESTS } from '../openapi/usage-console-requests';
import { CONVERSATION_ROUTES } from '../conversation-routes';
import { consoleUsageProductionDeps } from '../console-usage-wiring';

type Deps = ReturnType<typeof consoleUsageProductionDeps>;

/** The default view: the 30 UTC days up to today. */
const DEFAULT_DAYS = 30;

/** GET /console/v1/orgs/{orgId}/usage: usage and cost by day, app and model over a range of UTC days, from the rollup's buckets. */
export const createHandler = (deps: Deps) =>
  httpRoute(CONVERSATION_ROUTES.consoleUsageGet, deps, async (req) => {
    const { query } = await readRequest(USAGE_CONSOLE_REQUESTS.consoleUsageGet, req, { queryPolicy: strictQuery });
    const to = query.to ?? dayOf(deps.clock.nowUs());
    const from = query.from ?? dayOf(Date.parse(`${to}T00:00:00Z`) * 1000 - (DEFAULT_DAYS - 1) * DAY_US);
    const view = await usageTotals(deps, {
      orgId: consoleOrgOf(req).orgId,
      from,
      to,
      ...(query.appId !== undefined ? { appId: query.appId } : {}),
      ...(query.model !== undefined ? { model: query.model } : {}),
    });
    return { status: 200, body: { data: view } };
  });

export const handler = lambdaHandler(createHandler, consoleUsageProductionDeps);
