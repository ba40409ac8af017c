/**
 * The queue consumer and scheduled jobs of conversations: app deletions through the jobs queue, retention,
 * empty sessions, the deletion sweep and the usage rollup. Joined by functions/workers.ts; synth loads this file, so it
 * imports only types and leaf modules.
 */
import { queueTable, scheduleTable } from '../kernel/route-vocabulary';

export const CONVERSATION_QUEUES = queueTable({
  jobs: {
    handler: 'conversations/workers/jobs-worker',
    batchSize: 5,
    timeoutSeconds: 120,
    maxReceiveCount: 5,
    grants: ['table:read', 'table:write', 'jobs:send'],
  },
});

export const CONVERSATION_SCHEDULES = scheduleTable({
  'retention-expiry': {
    handler: 'conversations/workers/retention-expiry',
    expression: 'rate(1 hour)',
    timeoutSeconds: 300,
    grants: ['table:read', 'table:write'],
  },
  'empty-session-cleanup': {
    handler: 'conversations/workers/empty-session-cleanup',
    expression: 'rate(1 hour)',
    timeoutSeconds: 300,
    grants: ['table:read', 'table:write'],
  },
  'usage-rollup': {
    handler: 'conversations/workers/usage-rollup',
    expression: 'rate(5 minutes)',
    timeoutSeconds: 300,
    grants: ['table:read', 'table:write'],
  },
  'deletion-sweep': {
    handler: 'conversations/workers/deletion-sweep',
    expression: 'rate(10 minutes)',
    timeoutSeconds: 300,
    grants: ['table:read', 'table:write', 'jobs:send'],
  },
});
