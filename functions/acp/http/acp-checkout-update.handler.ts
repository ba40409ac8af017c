import { updateCheckout } from '../app/run-checkout';
import { acpCheckoutProductionDeps, type AcpCheckoutDeps } from '../acp-wiring';
import { checkoutRoute } from './acp-checkout';
import { lambdaHandler } from '../../kernel/http/kit';

/** POST /acp/{appId}/checkout_sessions/{id}: change line items or the buyer (405 once terminal). */
export const createHandler = (deps: AcpCheckoutDeps) =>
  checkoutRoute('acpCheckoutUpdate', deps, async (req, { checkoutSessionId, body, readAhead }) => ({
    status: 200,
    session: await updateCheckout(deps, { appId: req.grant!.appId!, id: checkoutSessionId, body, readAhead }),
  }));

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
