import { completeCheckout } from '../app/complete-checkout';
import { acpCheckoutProductionDeps, type AcpCheckoutDeps } from '../wiring/acp-wiring';
import { checkoutRoute } from './acp-checkout';
import { lambdaHandler } from '../../platform/http/lambda';
import { publicBaseUrl } from '../../platform/http/base-url';
import { ACP_ROUTES } from '../acp-routes';

/** POST /acp/{appId}/checkout_sessions/{id}/complete: pay with payment_data; the session comes back with its order. */
export const createHandler = (deps: AcpCheckoutDeps) =>
  checkoutRoute(ACP_ROUTES.acpCheckoutComplete, deps, async (req, body) => ({
    status: 200,
    session: await completeCheckout(deps, { appId: req.grant!.appId!, id: req.path.checkoutSessionId ?? '', body, baseUrl: publicBaseUrl(deps, req) }),
  }));

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
