/**
 * Queue consumers and scheduled jobs, the non-HTTP entry points, joined on top from each area's
 * `<area>-workers.ts` (keyed by queue id and job name). Like the route table, the CDK stacks and the
 * local process both loop over these; nothing below the composition imports this file.
 * Synth loads it: the area tables import only types and leaf modules.
 */
import { ACP_QUEUES, ACP_SCHEDULES } from './acp/acp-workers';
import { CHAT_QUEUES, CHAT_SCHEDULES } from './chat/chat-workers';
import { CONVERSATION_QUEUES, CONVERSATION_SCHEDULES } from './conversations/conversation-workers';
import { EXPORT_QUEUES } from './export/export-workers';
import type { QueueDef, ScheduleDef } from './kernel/route-vocabulary';
import { RELEASE_NOTES_QUEUES } from './release-notes/release-notes-workers';

const QUEUES_BY_ID = { ...CONVERSATION_QUEUES, ...RELEASE_NOTES_QUEUES, ...CHAT_QUEUES, ...EXPORT_QUEUES, ...ACP_QUEUES };
const SCHEDULES_BY_NAME = { ...CONVERSATION_SCHEDULES, ...CHAT_SCHEDULES, ...ACP_SCHEDULES };

export type QueueId = keyof typeof QUEUES_BY_ID;
export type JobName = keyof typeof SCHEDULES_BY_NAME;

export const QUEUES: readonly QueueDef<QueueId>[] = Object.values(QUEUES_BY_ID);
/**
 * The order the workers stack builds the jobs in (their dashboard widgets follow it) and the admin API
 * lists their names in, kept from before the jobs moved to their areas. A new job is ranked here, as it
 * is registered in functions/jobs/app/run-job.ts: the compiler asks for both.
 */
const RANK = {
  'retention-expiry': 0,
  'empty-session-cleanup': 1,
  'file-cleanup': 2,
  'checkout-recovery': 3,
  'deletion-sweep': 4,
  'usage-rollup': 5,
} satisfies Record<JobName, number>;

export const SCHEDULES: readonly ScheduleDef<JobName>[] = Object.values(SCHEDULES_BY_NAME).sort((a, b) => RANK[a.id] - RANK[b.id]);

const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** The interval of a `rate(...)` expression in milliseconds. */
export function rateIntervalMs(expression: ScheduleDef['expression']): number {
  const m = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression);
  if (!m) throw new Error(`unsupported schedule expression ${expression}`);
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}
