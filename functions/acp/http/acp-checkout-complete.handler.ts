import { completeCheckout } from '../app/complete-checkout';
import { acpCheckoutProductionDeps, type AcpCheckoutDeps } from '../acp-wiring';
import { checkoutRoute } from './acp-checkout';
import { lambdaHandler } from '../../kernel/http/kit';
import { publicBaseUrl } from '../../kernel/http/base-url';

/** POST /acp/{appId}/checkout_sessions/{id}/complete: pay with payment_data; the session comes back with its order. */
export const createHandler = (deps: AcpCheckoutDeps) =>
  checkoutRoute(
    'acpCheckoutComplete',
    deps,
    async (req, { checkoutSessionId, body, readAhead }) => ({
      status: 200,
      session: await completeCheckout(deps, { appId: req.grant!.appId!, id: checkoutSessionId, body, baseUrl: publicBaseUrl(deps, req), readAhead }),
    }),
    { orderWebhook: true },
  );

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
