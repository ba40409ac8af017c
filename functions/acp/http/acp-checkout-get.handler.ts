import { getCheckout } from '../app/run-checkout';
import { acpCheckoutProductionDeps, type AcpCheckoutDeps } from '../wiring/acp-wiring';
import { checkoutRoute } from './acp-checkout';
import { lambdaHandler } from '../../platform/http/lambda';
import { ACP_ROUTES } from '../acp-routes';

/** GET /acp/{appId}/checkout_sessions/{id}: the session (404 when it is not this app's). */
export const createHandler = (deps: AcpCheckoutDeps) =>
  checkoutRoute(ACP_ROUTES.acpCheckoutGet, deps, async (req) => ({
    status: 200,
    session: await getCheckout(deps, { appId: req.grant!.appId!, id: req.path.checkoutSessionId ?? '' }),
  }));

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
