/**
 * What the three console routes that issue a key share: the key is issued for the org of the path (an app
 * of another org is not found), named after its creator, and shown once; the audit log keeps its list view.
 */
import type { HttpResult } from '../../kernel/http/kit';
import type { ConsoleCaller } from '../app/admit-console-member';
import { issueCredential, type IssueCredentialInput } from '../app/issue-credential';
import type { ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { issuedKeyView, keyView } from './key-presenters';

export async function issueConsoleKey(
  deps: ConsoleTenancyDeps,
  caller: ConsoleCaller & { orgId: string },
  input: Omit<IssueCredentialInput, 'orgId' | 'createdBy'>,
): Promise<HttpResult> {
  const createdBy = { kind: 'member' as const, id: caller.userKey, ...(caller.email ? { email: caller.email } : {}) };
  const issued = await issueCredential(deps, { ...input, orgId: caller.orgId, createdBy });
  const now = deps.clock.nowUs();
  return {
    status: 201,
    body: { data: issuedKeyView(issued, now) },
    audit: { resource: { type: 'key', id: issued.credential.id }, after: keyView(issued.credential, now) },
  };
}
