/**
 * The audit log in one partition per org (`AUDIT#<org>`), with no index: each record is written as
 * four items whose sort keys serve the four lists newest first, `ALL#<time>#<id>`,
 * `ACTOR#<actor>#<time>#<id>`, `ACTION#<action>#<time>#<id>` and `RTYPE#<type>#<time>#<id>`
 * (names URI-encoded, so no `#` of theirs can reach into another's list). A list pages by keyset on
 * the list of its first filter and applies the others to what it reads. Puts are by id: writing a
 * record again keeps one. Every item carries the table's TTL at the retention period's end.
 */
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { auditExpiry, type AuditRecord } from '../domain/audit';
import type { AuditFilter, AuditLog, AuditPage } from '../app/members-ports';
import { decodePositionCursor, encodePositionCursor } from '../../kernel/domain/position-cursor';
import { definedFields, queryPages, timeIdKey } from '../../kernel/adapters/dynamo-batch';
import { TABLE_DESIGN } from '../../kernel/adapters/table-design';

const pk = (orgId: string) => `AUDIT#${orgId}`;
const part = (value: string) => `${encodeURIComponent(value)}#`;
const FIELDS = ['id', 'orgId', 'at', 'actor', 'action', 'resource', 'ip', 'userAgent', 'before', 'after'] as const;

/** The sort-key prefixes of a record's four lists. */
function prefixes(r: Pick<AuditRecord, 'actor' | 'action' | 'resource'>): string[] {
  return ['ALL#', `ACTOR#${part(r.actor.id)}`, `ACTION#${part(r.action)}`, `RTYPE#${part(r.resource.type)}`];
}

/** The list a filter reads: its first condition's, or every record's. */
function listPrefix(f: AuditFilter): string {
  if (f.actorId !== undefined) return `ACTOR#${part(f.actorId)}`;
  if (f.action !== undefined) return `ACTION#${part(f.action)}`;
  if (f.resourceType !== undefined) return `RTYPE#${part(f.resourceType)}`;
  return 'ALL#';
}

const matches = (r: AuditRecord, f: AuditFilter) =>
  (f.actorId === undefined || r.actor.id === f.actorId) &&
  (f.action === undefined || r.action === f.action) &&
  (f.resourceType === undefined || r.resource.type === f.resourceType);

const toRecord = (item: Record<string, unknown>) => definedFields<AuditRecord>(item, FIELDS);

const encodePosition = (r: AuditRecord) => encodePositionCursor(r.at, r.id);

function decodePosition(cursor: string): string {
  const { us, id } = decodePositionCursor(cursor);
  return timeIdKey(us, id);
}

export class DynamoAuditLog implements AuditLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async append(record: AuditRecord): Promise<void> {
    const item = { type: 'audit', ...record, [TABLE_DESIGN.ttlAttribute]: auditExpiry(record.at) };
    const position = timeIdKey(record.at, record.id);
    for (const prefix of prefixes(record)) {
      await this.db.send(new PutCommand({ TableName: this.table, Item: { ...item, pk: pk(record.orgId), sk: `${prefix}${position}` } }));
    }
  }

  async list(orgId: string, filter: AuditFilter, limit: number, cursor?: string): Promise<AuditPage> {
    const prefix = listPrefix(filter);
    const records: AuditRecord[] = [];
    const pages = queryPages(
      this.db,
      {
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk(orgId), ':prefix': prefix },
        ScanIndexForward: false,
        Limit: limit + 1,
      },
      cursor !== undefined ? { pk: pk(orgId), sk: `${prefix}${decodePosition(cursor)}` } : undefined,
    );
    // One more than the page tells whether a next page exists; the loop stops reading once it has it.
    for await (const page of pages) {
      records.push(...page.items.map(toRecord).filter((r) => matches(r, filter)));
      if (records.length > limit) break;
    }
    const shown = records.slice(0, limit);
    return { records: shown, ...(records.length > limit ? { cursor: encodePosition(shown[shown.length - 1]!) } : {}) };
  }
}
