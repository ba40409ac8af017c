/**
 * The lifecycle functions (the jobs worker and the scheduled jobs), each composing only what its use
 * case needs (ADR 0014): every one has the conversation stores on top of the core; the jobs queue
 * (lifecycle-queue-wiring.ts), the bucket (file-cleanup-wiring.ts) and the checkout ports
 * (acp-checkout-wiring.ts) come with the functions that use them, each builder in its own module, so
 * the retention and empty-session jobs bundle neither SQS, S3, Secrets Manager nor Stripe. Deleting a
 * session removes its variables with it (the session store), so no variable store is needed here.
 */
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENV } from '../../platform/env';
import type { ConversationPorts } from '../ports/conversation-ports';
import { buildConversationPorts } from './conversation-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from '../../platform/wiring/core-wiring';

export type LifecycleDeps = CoreDeps & ConversationPorts;

export function buildLifecycleDeps(opts: WiringOptions, db: DynamoDBDocumentClient = createDocumentClient(opts.aws ?? {})): LifecycleDeps {
  return { ...buildCoreDeps(opts, db), ...buildConversationPorts(db, opts.env[ENV.tableName]) };
}

/** The lifecycle deps plus `extra`'s ports (one client each), built once per cold start. */
export function lifecycleProductionDepsWith<E extends object>(extra: (opts: WiringOptions) => E): () => LifecycleDeps & E {
  return onFirstUse((opts) => ({ ...buildLifecycleDeps(opts), ...extra(opts) }));
}

/** The retention-expiry and empty-session-cleanup jobs: the table only. */
export const lifecycleProductionDeps = onFirstUse((opts) => buildLifecycleDeps(opts));
