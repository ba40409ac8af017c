/**
 * Export jobs in the platform table: one item a job (`EXPORTJOB#<id>`), replaced whole under a version
 * condition, expiring with the table's TTL.
 */
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sendConditional } from '../../kernel/adapters/dynamo-batch';
import { TABLE_DESIGN } from '../../kernel/adapters/table-design';
import { microsToMs, type Micros } from '../../kernel/domain/time';
import type { ExportJob } from '../domain/export-job';
import type { ExportJobStore } from '../app/export-ports';

const key = (id: string) => ({ pk: `EXPORTJOB#${id}`, sk: 'EXPORTJOB' });

export class DynamoExportJobStore implements ExportJobStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(job: ExportJob, expiresAtUs: Micros): Promise<void> {
    const item = { ...key(job.id), type: 'export_job', job, [TABLE_DESIGN.ttlAttribute]: Math.ceil(microsToMs(expiresAtUs) / 1000) };
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
}
