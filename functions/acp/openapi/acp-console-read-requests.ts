/**
 * The requests of area C's console routes that read or remove (no body), keyed by route id: the org,
 * app, order and fulfillment ids of the path and the order list's page. No zod: these functions bundle
 * none. The console refuses undeclared query parameters (`strictQuery`).
 */
import { badRequest } from '../../kernel/domain/errors';
import { declaredPathId, param, uuidPathId } from '../../kernel/http/request-declaration';
import { prefixedUuidPathParam } from '../../kernel/domain/ids';
import { FULFILLMENT_ID_PREFIX } from '../domain/order-ids';

export const consoleApp = { orgId: uuidPathId('orgId'), appId: uuidPathId('appId') };
export const consoleOrder = { ...consoleApp, orderId: uuidPathId('orderId') };
/** The orders a page holds at most. */
const MAX_ORDERS = 100;

export const ACP_CONSOLE_READ_REQUESTS = {
  consoleProductsList: { path: consoleApp },
  consoleOrdersList: {
    path: consoleApp,
    query: {
      limit: param({ type: 'integer', minimum: 1, maximum: MAX_ORDERS, description: `Orders per page (default 50, at most ${MAX_ORDERS})` }, (raw) => {
        const n = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
        if (!(n >= 1 && n <= MAX_ORDERS)) throw badRequest(`Invalid limit: must be from 1 to ${MAX_ORDERS}`);
        return n;
      }),
      cursor: param({ type: 'string', maxLength: 512, description: 'The `nextCursor` of the previous page' }, (raw) => {
        if (raw.length > 512) throw badRequest('Invalid cursor');
        return raw;
      }),
    },
  },
  consoleOrderGet: { path: consoleOrder },
  consoleOrderEventsList: { path: consoleOrder },
  consoleOrderDeliver: {
    path: {
      ...consoleOrder,
      fulfillmentId: declaredPathId('fulfillmentId', prefixedUuidPathParam(FULFILLMENT_ID_PREFIX, 'The fulfillment’s id (`ful_` and a UUID)')),
    },
  },
  consoleOrderWebhookGet: { path: consoleApp },
  consoleOrderWebhookDelete: { path: consoleApp },
};
