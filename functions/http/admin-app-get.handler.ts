import { getApp } from '../app/manage-apps';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { adminApp } from './presenters';
import { platformProductionDeps, type PlatformDeps } from '../wiring/platform-wiring';

/** GET /admin/v1/apps/{appId} */
export const createHandler = (deps: PlatformDeps) =>
  httpRoute('adminAppGet', deps, async (req) => ({ status: 200, body: { data: adminApp(await getApp(deps, { appId: req.path.appId ?? '' })) } }));

export const handler = lambdaHandler(createHandler, platformProductionDeps);
