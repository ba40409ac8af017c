import { getCheckout } from '../app/run-checkout';
import { acpCheckoutProductionDeps, type AcpCheckoutDeps } from '../acp-wiring';
import { checkoutRoute } from './acp-checkout';
import { lambdaHandler } from '../../kernel/http/kit';

/** GET /acp/{appId}/checkout_sessions/{id}: the session (404 when it is not this app's). */
export const createHandler = (deps: AcpCheckoutDeps) =>
  checkoutRoute('acpCheckoutGet', deps, async (req, { checkoutSessionId, readAhead }) => ({
    status: 200,
    session: await getCheckout(deps, { appId: req.grant!.appId!, id: checkoutSessionId, readAhead }),
  }));

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
