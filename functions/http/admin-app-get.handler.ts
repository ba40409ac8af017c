import { getApp } from '../app/manage-apps';
import { httpRoute, type HttpDeps } from './kit';
import { lambdaHandler } from './lambda';
import { adminApp } from './presenters';

/** GET /admin/v1/apps/{appId} */
export const createHandler = (deps: HttpDeps) =>
  httpRoute('adminAppGet', deps, async (req) => ({ status: 200, body: { data: adminApp(await getApp(deps, { appId: req.path.appId ?? '' })) } }));

export const handler = lambdaHandler(createHandler);
