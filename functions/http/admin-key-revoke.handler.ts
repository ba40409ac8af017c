import { revokeCredential } from '../app/issue-credential';
import { adminCredential } from './admin-presenters';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { platformProductionDeps, type PlatformDeps } from '../wiring/platform-wiring';

/** DELETE /admin/v1/keys/{keyId}: revokes a key of any kind at once. */
export const createHandler = (deps: PlatformDeps) =>
  httpRoute('adminKeyRevoke', deps, async (req) => {
    const revoked = await revokeCredential(deps, { keyId: req.path.keyId ?? '' });
    return { status: 200, body: { data: adminCredential(revoked) } };
  });

export const handler = lambdaHandler(createHandler, platformProductionDeps);
