/**
 * The admin order routes: the base admin deps plus area C's checkout ports (the lifecycle, its stock,
 * refunds and events) and the order-event log; the receiver routes also get the SSRF check of its URL
 * and the sealer of its secret.
 */
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { ENV } from '../../platform/env';
import type { CheckoutPorts, OrderEventLog } from '../ports/acp-ports';
import type { CallbackCheckDeps, SecretSealer } from '../../platform/ports/outbound-webhook-ports';
import { buildCheckoutPorts } from './acp-checkout-wiring';
import { buildOrderEventLog, type OrderEventWiringOptions } from './order-events-wiring';
import { buildWebhookSealing } from '../../platform/wiring/outbound-webhook-wiring';
import { buildAdminBaseDeps, type AdminBaseDeps } from '../../platform/wiring/admin-wiring';
import { onFirstUse } from '../../platform/wiring/core-wiring';

export type AdminOrdersDeps = AdminBaseDeps & CheckoutPorts & { readonly orderEventLog: OrderEventLog };

export type AdminOrderWebhookDeps = AdminBaseDeps & CheckoutPorts & CallbackCheckDeps & { readonly secrets: SecretSealer };

export const adminOrdersProductionDeps = onFirstUse((opts): AdminOrdersDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildAdminBaseDeps(opts, db), ...buildCheckoutPorts(opts, db, table), orderEventLog: buildOrderEventLog(db, table) };
});

export const adminOrderWebhookProductionDeps = onFirstUse((opts: OrderEventWiringOptions): AdminOrderWebhookDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return { ...buildAdminBaseDeps(opts, db), ...buildCheckoutPorts(opts, db, table), ...buildWebhookSealing(opts) };
});
