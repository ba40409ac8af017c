import { badRequest } from '../../kernel/domain/errors';
import type { CredentialKind } from '../domain/credentials';
import type { CredentialPage, PlatformDeps } from './tenancy-ports';
import { KEY_PAGE_DEFAULT, KEY_PAGE_MAX } from '../domain/credentials';

/**
 * A page of an org's keys of every kind and state (active, expired, revoked), newest first, optionally
 * only one app's or one kind's: what the console's key list shows. Never a secret: a key's record holds
 * its hash only, and the presenter leaves that out too. Who may read it is the caller's check.
 */
export async function listCredentials(
  deps: Pick<PlatformDeps, 'credentials'>,
  input: { orgId: string; appId?: string; kind?: CredentialKind; limit?: number; cursor?: string },
): Promise<CredentialPage> {
  const limit = input.limit ?? KEY_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > KEY_PAGE_MAX) throw badRequest(`Invalid limit: must be from 1 to ${KEY_PAGE_MAX}`);
  const filter = { ...(input.appId !== undefined ? { appId: input.appId } : {}), ...(input.kind !== undefined ? { kind: input.kind } : {}) };
  return deps.credentials.listByOrg(input.orgId, filter, limit, input.cursor);
}
