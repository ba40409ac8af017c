/** The member, invitation and audit use cases' deps over the production DynamoDB adapters, and people to sign in. */
import { CryptoIds } from '../../functions/kernel/adapters/crypto-ids';
import { DynamoAuditLog } from '../../functions/tenancy/adapters/dynamo-audit-log';
import { DynamoInvitationStore } from '../../functions/tenancy/adapters/dynamo-invitation-store';
import { DynamoMemberStore } from '../../functions/tenancy/adapters/dynamo-member-store';
import { DynamoOrgStore } from '../../functions/tenancy/adapters/dynamo-org-store';
import { DynamoPersonStore } from '../../functions/tenancy/adapters/dynamo-person-store';
import type { MembersDeps } from '../../functions/tenancy/app/members-ports';
import type { VerifiedIdentity } from '../../functions/tenancy/domain/members';
import { TestClock } from './clock';
import type { TestTable } from './dynamo';

export function membersDeps(t: TestTable, clock = new TestClock('2026-11-01T00:00:00Z')): MembersDeps & { clock: TestClock } {
  return {
    clock,
    ids: new CryptoIds(),
    orgs: new DynamoOrgStore(t.db, t.table),
    persons: new DynamoPersonStore(t.db, t.table),
    members: new DynamoMemberStore(t.db, t.table),
    invitations: new DynamoInvitationStore(t.db, t.table),
    audit: new DynamoAuditLog(t.db, t.table),
  };
}

export const ORIGIN = { ip: '203.0.113.7', userAgent: 'vitest' } as const;

/** A person of the test issuer, with a verified address `<name>@example.com`. */
export function person(name: string, issuer = 'https://idp.example.com'): VerifiedIdentity {
  return { issuer, subject: `sub-${name}`, email: `${name}@example.com`, emailVerified: true };
}
