import { acpCheckoutProductionDeps } from '../wiring/acp-checkout-wiring';
import { lambdaJob } from './job-kit';

/** Scheduled job `checkout-recovery` (functions/workers.ts): checkout completes whose request is gone. */
export const handler = lambdaJob('checkout-recovery', acpCheckoutProductionDeps);
