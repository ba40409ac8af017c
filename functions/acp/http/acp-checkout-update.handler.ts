import { updateCheckout } from '../app/run-checkout';
import { acpCheckoutProductionDeps, type AcpCheckoutDeps } from '../wiring/acp-wiring';
import { checkoutRoute } from './acp-checkout';
import { lambdaHandler } from '../../platform/http/lambda';
import { ACP_ROUTES } from '../acp-routes';

/** POST /acp/{appId}/checkout_sessions/{id}: change line items or the buyer (405 once terminal). */
export const createHandler = (deps: AcpCheckoutDeps) =>
  checkoutRoute(ACP_ROUTES.acpCheckoutUpdate, deps, async (req, body) => ({
    status: 200,
    session: await updateCheckout(deps, { appId: req.grant!.appId!, id: req.path.checkoutSessionId ?? '', body }),
  }));

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
