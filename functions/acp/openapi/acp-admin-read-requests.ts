/**
 * The requests of area C's admin routes that read or remove (no body): path ids (UUIDs) and the order
 * list's `limit`, keyed by route id. No zod: these functions bundle none.
 */
import { badRequest } from '../../kernel/domain/errors';
import { declaredPathId, param, uuidPathId } from '../../kernel/http/request-declaration';
import { prefixedUuidPathParam } from '../../kernel/domain/ids';
import { FULFILLMENT_ID_PREFIX } from '../domain/order-ids';

const app = { appId: uuidPathId('appId') };
const order = { ...app, orderId: uuidPathId('orderId') };
/** The orders a page holds at most; a larger `limit` is read as this. */
const MAX_ORDERS = 100;

export const ACP_ADMIN_READ_REQUESTS = {
  adminProductsList: { path: app },
  adminOrdersList: {
    path: app,
    query: {
      limit: param(
        { type: 'integer', minimum: 1, description: `Orders per page: default 50, at most ${MAX_ORDERS} (larger values read as ${MAX_ORDERS})` },
        (raw) => {
          const limit = Number(raw);
          if (!Number.isInteger(limit) || limit < 1) throw badRequest('Invalid limit: a whole number from 1 to 100');
          return Math.min(limit, MAX_ORDERS);
        },
      ),
    },
  },
  adminOrderGet: { path: order },
  adminOrderEventsList: { path: order },
  adminOrderDeliver: {
    path: {
      ...order,
      fulfillmentId: declaredPathId('fulfillmentId', prefixedUuidPathParam(FULFILLMENT_ID_PREFIX, 'The fulfillment’s id (`ful_` and a UUID)')),
    },
  },
  adminOrderWebhookGet: { path: app },
  adminOrderWebhookDelete: { path: app },
};
