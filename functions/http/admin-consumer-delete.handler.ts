import { deleteConsumer } from '../app/delete-resources';
import { adminTombstone } from './admin-presenters';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { adminProductionDeps, type AdminBaseDeps } from '../wiring/admin-wiring';

/** DELETE /admin/v1/consumers/{consumerId}: removes the consumer and its sessions (cause `consumer_deleted`). */
export const createHandler = (deps: AdminBaseDeps) =>
  httpRoute('adminConsumerDelete', deps, async (req) => ({
    status: 200,
    body: { data: { tombstone: adminTombstone(await deleteConsumer(deps, { consumerId: req.path.consumerId ?? '' })) } },
  }));

export const handler = lambdaHandler(createHandler, adminProductionDeps);
