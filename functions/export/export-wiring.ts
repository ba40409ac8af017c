/**
 * Area A's composition root. The list routes read the table only; the snapshot export's routes and
 * worker (docs/adr/0031) add the job store, the exports queue and the bucket. Each production deps is
 * a pure declaration, so a function's bundle keeps only the clients of the one it uses.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { createSqsClient } from '../kernel/adapters/aws-queue-clients';
import { createS3Client } from '../kernel/adapters/aws-s3-client';
import { ENV } from '../kernel/env';
import type { ConversationPorts } from '../conversations/app/conversation-ports';
import { buildConversationPorts } from '../conversations/conversation-wiring';
import { DynamoSessionStore } from '../conversations/adapters/dynamo-session-store';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from '../tenancy/wiring/core-wiring';
import { DynamoExportJobStore } from './adapters/dynamo-export-job-store';
import { DynamoExportReader } from './adapters/dynamo-export-reader';
import { DynamoKeyMaterial } from './adapters/dynamo-key-material';
import { S3ExportObjects } from './adapters/s3-export-objects';
import { SqsExportChunkQueue } from './adapters/sqs-export-chunk-queue';
import type { ExportChunkMessage } from './domain/export-job';
import type { ExportJobListPorts, ExportJobPorts, ExportPorts } from './app/export-ports';

/** The list routes read the sessions (transcripts, a session's messages) beside the export reader: no other conversation store. */
export type ExportFunctionDeps = CoreDeps & Pick<ConversationPorts, 'sessions'> & ExportPorts;
export type ExportJobFunctionDeps = CoreDeps & ConversationPorts & ExportPorts & ExportJobPorts;

export function buildExportPorts(db: DynamoDBDocumentClient, table: string): ExportPorts {
  return { exportReader: new DynamoExportReader(db, table), keys: new DynamoKeyMaterial(db, table) };
}

export function buildExportJobPorts(opts: WiringOptions, db: DynamoDBDocumentClient, table: string): ExportJobPorts & ExportJobListPorts {
  const queueUrl = opts.env[ENV.exportsQueueUrl];
  const queue = queueUrl !== undefined ? new SqsExportChunkQueue(createSqsClient(opts.aws ?? {}), queueUrl) : undefined;
  const jobs = new DynamoExportJobStore(db, table);
  return {
    exportJobs: jobs,
    exportJobList: jobs,
    // Only a function with the `exports:send` grant has the queue's URL; the others never send.
    exportChunks: {
      send: (message: ExportChunkMessage) => {
        if (!queue) throw new Error(`${ENV.exportsQueueUrl} is not set: this function has no exports:send grant`);
        return queue.send(message);
      },
    },
    exportObjects: new S3ExportObjects(createS3Client(opts.aws ?? {}), opts.env[ENV.bucketName]),
  };
}

export function buildExportDeps(opts: WiringOptions): ExportFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildCoreDeps(opts, db), sessions: new DynamoSessionStore(db, table), ...buildExportPorts(db, table) };
}

export function buildExportJobDeps(opts: WiringOptions): ExportJobFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildCoreDeps(opts, db), ...buildConversationPorts(db, table), ...buildExportPorts(db, table), ...buildExportJobPorts(opts, db, table) };
}

export const exportProductionDeps = /* @__PURE__ */ onFirstUse(buildExportDeps);
export const exportJobProductionDeps = /* @__PURE__ */ onFirstUse(buildExportJobDeps);
