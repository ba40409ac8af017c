import { checkoutRecoveryJob } from '../app/recover-checkout-completions';
import { acpCheckoutProductionDeps } from '../wiring/acp-wiring';
import { lambdaJob } from '../../platform/jobs/job-kit';

/** Scheduled job `checkout-recovery` (functions/workers.ts): checkout completes whose request is gone. */
export const handler = lambdaJob('checkout-recovery', checkoutRecoveryJob, acpCheckoutProductionDeps);
