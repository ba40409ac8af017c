import { deleteSession } from '../app/delete-resources';
import { adminTombstone } from './admin-presenters';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';

/** DELETE /admin/v1/sessions/{sessionId}: the product's session delete (tombstone cause `consumer_deleted`). */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute('adminSessionDelete', deps, async (req) => ({
    status: 200,
    body: { data: { tombstone: adminTombstone(await deleteSession(deps, { sessionId: req.path.sessionId ?? '' })) } },
  }));

export const handler = lambdaHandler(createHandler, adminProductionDeps);
