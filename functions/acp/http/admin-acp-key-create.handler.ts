import { issueCredential } from '../../platform/app/issue-credential';
import { adminCredential } from '../../platform/http/admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { readRequest } from '../../platform/http/request-declaration';
import { ACP_ADMIN_REQUESTS } from '../openapi/acp-admin-requests';
import { lambdaHandler } from '../../platform/http/lambda';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../../platform/wiring/admin-keys-wiring';

/** POST /admin/v1/apps/{appId}/acp-keys: an ACP key (`acp_` + 32 characters) bound to the app; shown once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute('adminAcpKeyCreate', deps, async (req) => {
    const { path, body: input } = await readRequest(ACP_ADMIN_REQUESTS.adminAcpKeyCreate, req);
    const issued = await issueCredential(deps, {
      kind: 'acp',
      appId: path.appId,
      ...(input.expiresAt !== undefined ? { expiresAtUs: input.expiresAt } : {}),
      ...(input.name ? { name: input.name } : {}),
    });
    return { status: 201, body: { data: adminCredential(issued.credential, issued.key) } };
  });

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
