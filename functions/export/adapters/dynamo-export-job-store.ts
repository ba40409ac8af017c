/**
 * Export jobs in the platform table: one item a job (`EXPORTJOB#<id>`), replaced whole under a version
 * condition, expiring with the table's TTL; and a reference to it in its org's partition
 * (`ORGEXPORTJOBS#<org>`, by creation time and id), written first and expiring with it, which lists
 * an org's jobs by key.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sendConditional, timeIdKey } from '../../kernel/adapters/dynamo-batch';
import type { KeysetPosition } from '../domain/cursor';
import { TABLE_DESIGN } from '../../kernel/adapters/table-design';
import { microsToMs, type Micros } from '../../kernel/domain/time';
import type { ExportJob } from '../domain/export-job';
import type { ExportJobList, ExportJobStore } from '../app/export-ports';

const key = (id: string) => ({ pk: `EXPORTJOB#${id}`, sk: 'EXPORTJOB' });
const orgPartition = (orgId: string) => `ORGEXPORTJOBS#${orgId}`;

export class DynamoExportJobStore implements ExportJobStore, ExportJobList {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(job: ExportJob, expiresAtUs: Micros): Promise<void> {
    const expiry = { [TABLE_DESIGN.ttlAttribute]: Math.ceil(microsToMs(expiresAtUs) / 1000) };
    // The reference first: one left by a create that failed names no job, and the list skips it.
    const ref = { pk: orgPartition(job.orgId), sk: timeIdKey(job.createdAtUs, job.id), type: 'export_job_ref', jobId: job.id, ...expiry };
    await this.db.send(new PutCommand({ TableName: this.table, Item: ref }));
    const item = { ...key(job.id), type: 'export_job', job, ...expiry };
    if (!(await sendConditional(this.db, new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' })))) {
      throw new Error(`export job ${job.id} exists already`);
    }
  }

  async get(id: string): Promise<ExportJob | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(id), ConsistentRead: true }));
    return res.Item ? (res.Item.job as ExportJob) : undefined;
  }

  replace(next: ExportJob, expectedVersion: number): Promise<boolean> {
    return sendConditional(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: key(next.id),
        UpdateExpression: 'SET #job = :job',
        ConditionExpression: '#job.#version = :v',
        ExpressionAttributeNames: { '#job': 'job', '#version': 'version' },
        ExpressionAttributeValues: { ':job': next, ':v': expectedVersion },
      }),
    );
  }

  async listByOrg(orgId: string, limit: number, after?: KeysetPosition): Promise<ExportJob[]> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: after ? 'pk = :pk AND sk < :after' : 'pk = :pk',
        ExpressionAttributeValues: { ':pk': orgPartition(orgId), ...(after ? { ':after': timeIdKey(after.sortUs, after.id) } : {}) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    const jobs = await Promise.all((res.Items ?? []).map((ref) => this.get(String(ref.jobId))));
    return jobs.filter((j): j is ExportJob => j !== undefined && j.orgId === orgId);
  }
}
