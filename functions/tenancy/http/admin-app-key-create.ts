/**
 * What the admin routes that issue a key bound to one app (chat keys, ACP keys) share: the same
 * optional body (`name`, `expiresAt`; an empty body is allowed) and the same answer, the key shown
 * once. Only the key's kind differs.
 */
import { ADMIN_OPERATOR, issueCredential } from '../app/issue-credential';
import type { CredentialKind } from '../domain/credentials';
import { adminCredential } from './admin-presenters';

/** What such a route reads through its request declaration: the app of the path and the optional body. */
export interface AppKeyRequest {
  readonly path: { readonly appId: string };
  readonly body: { readonly name?: string | undefined; readonly expiresAt?: number | undefined };
}

/** Issues a key of `kind` for the app of the path: 201 with the key in full. */
export async function createAppKey(deps: Parameters<typeof issueCredential>[0], kind: Exclude<CredentialKind, 'org'>, { path, body }: AppKeyRequest) {
  const issued = await issueCredential(deps, {
    kind,
    appId: path.appId,
    ...(body.expiresAt !== undefined ? { expiresAtUs: body.expiresAt } : {}),
    ...(body.name ? { name: body.name } : {}),
    createdBy: ADMIN_OPERATOR,
  });
  const after = adminCredential(issued.credential);
  return {
    status: 201,
    body: { data: adminCredential(issued.credential, issued.key) },
    audit: { orgId: issued.credential.orgId, resource: { type: 'key', id: issued.credential.id }, after },
  };
}
