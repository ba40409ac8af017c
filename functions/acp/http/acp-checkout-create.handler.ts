import { createCheckout } from '../app/run-checkout';
import { acpCheckoutProductionDeps, type AcpCheckoutDeps } from '../acp-wiring';
import { checkoutRoute } from './acp-checkout';
import { lambdaHandler } from '../../kernel/http/kit';

/** POST /acp/{appId}/checkout_sessions: a checkout session for the spec's line_items [{ product_id, quantity }] (201). */
export const createHandler = (deps: AcpCheckoutDeps) =>
  checkoutRoute('acpCheckoutCreate', deps, async (req, { body, readAhead }) => ({
    status: 201,
    session: await createCheckout(deps, { appId: req.grant!.appId!, orgId: req.grant!.orgId, body, readAhead }),
  }));

export const handler = lambdaHandler(createHandler, acpCheckoutProductionDeps);
