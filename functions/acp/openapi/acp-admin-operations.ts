/**
 * Area C's part of the admin OpenAPI document: ACP keys, the catalog, orders and the app's order-event
 * receiver (the admin routes of acp/acp-routes.ts), joined with the other areas' in
 * functions/openapi/admin-operations.ts.
 */
import * as z from 'zod';
import { adminCredential, adminData } from '../../tenancy/openapi/admin-schemas';
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import { adminOrder, adminOrderDetail, adminOrderEvents, adminOrderWebhook, adminProduct } from './acp-admin-schemas';
import { ACP_ADMIN_READ_REQUESTS } from './acp-admin-read-requests';
import { ACP_ADMIN_REQUESTS } from './acp-admin-requests';

const CATALOG = 'ACP catalog';
const ORDERS = 'ACP orders';
const product = json(adminData(adminProduct, 'AdminProductAnswer'));
const order = json(adminData(adminOrderDetail, 'AdminOrderDetailAnswer'));
/** An order change: the app or order unknown (404), or the change not allowed in the order's state, or a write race (409). */
const ORDER_CHANGE_ERRORS = [401, 404, 409];

export const ACP_ADMIN_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  adminProductCreate: {
    tag: CATALOG,
    summary: 'Add a product to the app’s catalog',
    description: 'An active product: price in minor units, inventory null for unlimited.',
    request: ACP_ADMIN_REQUESTS.adminProductCreate,
    ok: { status: 201, description: 'The product', content: product },
    errors: [401, 404],
  },
  adminProductsList: {
    tag: CATALOG,
    summary: 'The app’s products',
    description: 'Every product of the app, inactive ones included, oldest first.',
    request: ACP_ADMIN_READ_REQUESTS.adminProductsList,
    ok: { status: 200, description: 'The products', content: json(adminData(z.array(adminProduct), 'AdminProductList')) },
    errors: [401, 404],
  },
  adminProductUpdate: {
    tag: CATALOG,
    summary: 'Change a product',
    description: 'Changes the fields sent (at least one); `{"active": false}` takes it out of the catalog.',
    request: ACP_ADMIN_REQUESTS.adminProductUpdate,
    ok: { status: 200, description: 'The product', content: product },
    errors: [401, 404],
  },
  adminAcpKeyCreate: {
    tag: 'Keys',
    summary: 'Issue an ACP key',
    description:
      'An ACP key (`acp_` and 32 characters) bound to the app, optionally named and expiring; an empty body is an empty object. The answer shows the key once.',
    request: ACP_ADMIN_REQUESTS.adminAcpKeyCreate,
    ok: { status: 201, description: 'The key, shown once', content: json(adminData(adminCredential, 'AdminKeyAnswer')) },
    errors: [401, 404],
  },
  adminOrdersList: {
    tag: ORDERS,
    summary: 'The app’s orders',
    description: 'Completed ACP checkouts, newest first.',
    request: ACP_ADMIN_READ_REQUESTS.adminOrdersList,
    ok: { status: 200, description: 'The orders', content: json(adminData(z.array(adminOrder), 'AdminOrderList')) },
    errors: [401, 404],
  },
  adminOrderGet: {
    tag: ORDERS,
    summary: 'Read an order',
    description: 'The order as the merchant sees it, with the ACP `Order` the agent platform sees.',
    request: ACP_ADMIN_READ_REQUESTS.adminOrderGet,
    ok: { status: 200, description: 'The order', content: order },
    errors: [401, 404],
  },
  adminOrderFulfill: {
    tag: ORDERS,
    summary: 'Record a fulfillment',
    description:
      'Units sent (every unit still to send when `lines` is absent): a shipment, with carrier and tracking, starts `shipped` unless recorded `delivered`; a digital delivery is delivered at once. The new fulfillment’s id (`ful_…`) is the last of `acpOrder.fulfillments`. The agent platform gets an `order_update`.',
    request: ACP_ADMIN_REQUESTS.adminOrderFulfill,
    ok: { status: 200, description: 'The order', content: order },
    errors: ORDER_CHANGE_ERRORS,
  },
  adminOrderDeliver: {
    tag: ORDERS,
    summary: 'Mark a shipment delivered',
    description:
      'The fulfillment (its `ful_…` id from the fulfill answer) is delivered; the order is `completed` once every unit is delivered. The agent platform gets an `order_update`.',
    request: ACP_ADMIN_READ_REQUESTS.adminOrderDeliver,
    ok: { status: 200, description: 'The order', content: order },
    errors: ORDER_CHANGE_ERRORS,
  },
  adminOrderRefund: {
    tag: ORDERS,
    summary: 'Refund an order',
    description:
      'Refunds an amount (minor units, at most what is not refunded yet) through the payment provider; `lines` names units that came back, which return to stock.',
    request: ACP_ADMIN_REQUESTS.adminOrderRefund,
    ok: { status: 200, description: 'The order', content: order },
    errors: ORDER_CHANGE_ERRORS,
  },
  adminOrderCancel: {
    tag: ORDERS,
    summary: 'Cancel an order',
    description: 'Units not sent go back to stock; what was charged and not refunded is refunded unless `refund` is false. An empty body is an empty object.',
    request: ACP_ADMIN_REQUESTS.adminOrderCancel,
    ok: { status: 200, description: 'The order', content: order },
    errors: ORDER_CHANGE_ERRORS,
  },
  adminOrderEventsList: {
    tag: ORDERS,
    summary: 'An order’s events for the agent platform',
    description: 'The events waiting in the order’s outbox and the delivery attempts, newest first.',
    request: ACP_ADMIN_READ_REQUESTS.adminOrderEventsList,
    ok: { status: 200, description: 'Pending events and attempts', content: json(adminData(adminOrderEvents, 'AdminOrderEventsAnswer')) },
    errors: [401, 404],
  },
  adminOrderWebhookPut: {
    tag: ORDERS,
    summary: 'Set the app’s order-event receiver',
    description:
      'The agent platform’s HTTPS receiver of the app’s order events, and the secret they are signed with (`Merchant-Signature`): the one the agent platform issued, or, without `secret`, one made here and shown once.',
    request: ACP_ADMIN_REQUESTS.adminOrderWebhookPut,
    ok: { status: 200, description: 'The receiver', content: json(adminData(adminOrderWebhook, 'AdminOrderWebhookAnswer')) },
    errors: [401, 404],
  },
  adminOrderWebhookGet: {
    tag: ORDERS,
    summary: 'The app’s order-event receiver',
    description: 'Its URL, never its secret; 404 when the app has none.',
    request: ACP_ADMIN_READ_REQUESTS.adminOrderWebhookGet,
    ok: { status: 200, description: 'The receiver', content: json(adminData(adminOrderWebhook, 'AdminOrderWebhookAnswer')) },
    errors: [401, 404],
  },
  adminOrderWebhookDelete: {
    tag: ORDERS,
    summary: 'Remove the app’s order-event receiver',
    description: 'No more order events for the app; those waiting are dropped.',
    request: ACP_ADMIN_READ_REQUESTS.adminOrderWebhookDelete,
    ok: { status: 204, description: 'Removed' },
    errors: [401, 404],
  },
};
