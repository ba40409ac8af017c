/**
 * The conversations slice's composition root: the conversation stores (sessions, consumers, usage,
 * tombstones, file records) that the export and chat wirings build on, the uploads bucket, and the
 * production deps of the slice's own functions (ADR 0014): the admin routes and the retention jobs use
 * the table only; the jobs worker and the deletion sweep add the jobs queue. Each production deps is a
 * pure declaration, so a function's bundle keeps only the clients of the one it uses: the retention
 * and empty-session jobs bundle neither SQS nor S3. Deleting a session removes its variables with it
 * (the session store), so no variable store is needed here.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { ENV } from '../kernel/env';
import type { JobQueue } from '../kernel/app/kernel-ports';
import { buildAdminBaseDeps, type AdminBaseDeps } from '../tenancy/wiring/admin-wiring';
import { onFirstUse, type CoreDeps, type WiringOptions } from '../tenancy/wiring/core-wiring';
import { buildJobQueue } from '../kernel/wiring/job-queue-wiring';
import { DynamoConsumerStore } from './adapters/dynamo-consumer-store';
import { DynamoFileStore } from './adapters/dynamo-file-store';
import { DynamoSessionStore } from './adapters/dynamo-session-store';
import { DynamoTombstoneStore } from './adapters/dynamo-tombstone-store';
import { DynamoUsageStore } from './adapters/dynamo-usage-store';
import type { ConversationPorts } from './app/conversation-ports';

/** What a lifecycle function (a scheduled job, the jobs worker) reads and writes. */
type LifecycleDeps = CoreDeps & ConversationPorts;
/** What the admin routes over conversations use: an admin route's deps and the stores. */
export type ConversationAdminDeps = AdminBaseDeps & ConversationPorts;
/** The lifecycle functions that queue app deletions. */
export type LifecycleQueueDeps = LifecycleDeps & { readonly jobs: JobQueue };

export function buildConversationPorts(db: DynamoDBDocumentClient, table: string): ConversationPorts {
  return {
    sessions: new DynamoSessionStore(db, table),
    consumers: new DynamoConsumerStore(db, table),
    usage: new DynamoUsageStore(db, table),
    tombstones: new DynamoTombstoneStore(db, table),
    files: new DynamoFileStore(db, table),
  };
}

/** The core stores, the org credits and the conversation stores, over one DynamoDB client. */
export function buildConversationDeps(opts: WiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): ConversationAdminDeps {
  return { ...buildAdminBaseDeps(opts, db), ...buildConversationPorts(db, opts.env[ENV.tableName]) };
}

/** The conversation deps plus `extra`'s ports (one client each), built once per cold start. */
export function conversationProductionDepsWith<E extends object>(extra: (opts: WiringOptions) => E): () => ConversationAdminDeps & E {
  return onFirstUse((opts) => ({ ...buildConversationDeps(opts), ...extra(opts) }));
}

export const conversationProductionDeps = /* @__PURE__ */ onFirstUse((opts) => buildConversationDeps(opts));
export const conversationQueueProductionDeps = /* @__PURE__ */ conversationProductionDepsWith((opts) => ({ jobs: buildJobQueue(opts) }));
