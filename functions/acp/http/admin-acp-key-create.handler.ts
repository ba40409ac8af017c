import { issueCredential } from '../../platform/app/issue-credential';
import { adminCredential } from '../../platform/http/admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { parseWith } from '../../platform/http/validation';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../../platform/wiring/admin-keys-wiring';
import { APP_KEY_CREATE_BODY } from '../../platform/openapi/admin-requests';

/** POST /admin/v1/apps/{appId}/acp-keys: an ACP key (`acp_` + 32 characters) bound to the app; shown once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute('adminAcpKeyCreate', deps, async (req) => {
    const input = parseWith(APP_KEY_CREATE_BODY, req.textBody().trim() ? req.jsonBody() : {});
    const issued = await issueCredential(deps, {
      kind: 'acp',
      appId: req.path.appId,
      ...(input.expiresAt !== undefined ? { expiresAtUs: input.expiresAt } : {}),
      ...(input.name ? { name: input.name } : {}),
    });
    return { status: 201, body: { data: adminCredential(issued.credential, issued.key) } };
  });

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
