import { checkoutRecoveryJob } from '../app/recover-checkout-completions';
import { acpCheckoutProductionDeps } from '../acp-wiring';
import { lambdaJob } from '../../kernel/workers/job-kit';
import { ACP_SCHEDULES } from '../acp-workers';

/** Scheduled job `checkout-recovery` (functions/workers.ts): checkout completes whose request is gone. */
export const handler = lambdaJob(ACP_SCHEDULES['checkout-recovery'], checkoutRecoveryJob, acpCheckoutProductionDeps);
