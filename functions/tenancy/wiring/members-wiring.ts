/**
 * The stores of people, members, invitations and the audit log, for the functions that act on them
 * (the console's, and the admin routes that record their changes). Added on top of the core deps,
 * which bring the clock, the ids and the org store the use cases also take.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoAuditLog } from '../adapters/dynamo-audit-log';
import { DynamoInvitationStore } from '../adapters/dynamo-invitation-store';
import { DynamoMemberStore } from '../adapters/dynamo-member-store';
import { DynamoPersonStore } from '../adapters/dynamo-person-store';
import type { MembersDeps } from '../app/members-ports';

export type MembersPorts = Pick<MembersDeps, 'persons' | 'members' | 'invitations' | 'audit'>;

export function buildMembersPorts(db: DynamoDBDocumentClient, table: string): MembersPorts {
  return {
    persons: new DynamoPersonStore(db, table),
    members: new DynamoMemberStore(db, table),
    invitations: new DynamoInvitationStore(db, table),
    audit: new DynamoAuditLog(db, table),
  };
}
