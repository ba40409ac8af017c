/** The admin route that lists an app's orders: the base admin deps plus area C's checkout ports. */
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { ENV } from '../../platform/env';
import type { CheckoutPorts } from '../ports/acp-ports';
import { buildCheckoutPorts } from './acp-checkout-wiring';
import { buildAdminBaseDeps, type AdminBaseDeps } from '../../platform/wiring/admin-wiring';
import { onFirstUse } from '../../platform/wiring/core-wiring';

export type AdminOrdersDeps = AdminBaseDeps & CheckoutPorts;

export const adminOrdersProductionDeps = onFirstUse((opts): AdminOrdersDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildAdminBaseDeps(opts, db), ...buildCheckoutPorts(opts, db, opts.env[ENV.tableName]) };
});
