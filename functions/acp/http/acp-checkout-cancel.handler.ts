import { cancelCheckout } from '../app/run-checkout';
import { acpCheckoutProductionDeps, type AcpCheckoutDeps } from '../acp-wiring';
import { checkoutRoute } from './acp-checkout';
import { lambdaHandler } from '../../kernel/http/kit';

/** POST /acp/{appId}/checkout_sessions/{id}/cancel: cancel (405 once completed or canceled); the body is optional ({ intent_trace }). */
export const createHandler = (deps: AcpCheckoutDeps) =>
  checkoutRoute('acpCheckoutCancel', deps, async (req, { checkoutSessionId, body, readAhead }) => ({
    status: 200,
    session: await cancelCheckout(deps, { appId: req.grant!.appId!, id: checkoutSessionId, body, readAhead }),
  }));

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
