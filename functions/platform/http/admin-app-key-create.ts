/**
 * What the admin routes that issue a key bound to one app (chat keys, ACP keys) share: the same
 * optional body (`name`, `expiresAt`; an empty body is allowed) and the same answer, the key shown
 * once. Only the key's kind differs.
 */
import { issueCredential } from '../app/issue-credential';
import type { CredentialKind } from '../domain/credentials';
import { adminCredential } from './admin-presenters';
import type { HttpRequest } from './kit-request';
import { parseWith } from './validation';
import { APP_KEY_CREATE_BODY } from '../openapi/admin-requests';

/** Issues a key of `kind` for the app of the path: 201 with the key in full. */
export async function createAppKey(deps: Parameters<typeof issueCredential>[0], req: HttpRequest, kind: Exclude<CredentialKind, 'org'>) {
  const input = parseWith(APP_KEY_CREATE_BODY, req.textBody().trim() ? req.jsonBody() : {});
  const issued = await issueCredential(deps, {
    kind,
    appId: req.path.appId,
    ...(input.expiresAt !== undefined ? { expiresAtUs: input.expiresAt } : {}),
    ...(input.name ? { name: input.name } : {}),
  });
  return { status: 201, body: { data: adminCredential(issued.credential, issued.key) } };
}
