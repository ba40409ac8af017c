/**
 * Area C's part of the console OpenAPI document: the catalog, orders and the order-event receiver of an
 * app of the member's org (the console routes of acp/acp-routes.ts), joined in
 * functions/openapi/console-document.ts. The answers are the admin API's shapes.
 */
import * as z from 'zod';
import { adminData } from '../../tenancy/openapi/admin-schemas';
import { CONSOLE_ERRORS } from '../../tenancy/openapi/tenancy-console-operations';
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import { adminOrder, adminOrderDetail, adminOrderEvents, adminOrderWebhook, adminProduct } from './acp-admin-schemas';
import { ACP_CONSOLE_READ_REQUESTS as READ } from './acp-console-read-requests';
import { ACP_CONSOLE_REQUESTS as CHANGE } from './acp-console-requests';

const TAG = 'Catalog and orders';
const product = json(adminData(adminProduct, 'ConsoleProductAnswer'));
const order = json(adminData(adminOrderDetail, 'ConsoleOrderDetailAnswer'));
const receiver = json(adminData(adminOrderWebhook, 'ConsoleOrderWebhookAnswer'));
/** An order change: also refused in the order's state, or lost to a concurrent change (409). */
const ORDER_CHANGE_ERRORS = [...CONSOLE_ERRORS, 409];
const APP_404 = { 404: 'Not a member of the org, or the app (or the resource named) is not the org’s' };

export const ACP_CONSOLE_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  consoleProductsList: {
    tag: TAG,
    summary: 'List the app’s products',
    description: 'Every product of the app’s ACP catalog, inactive ones included, oldest first.',
    request: READ.consoleProductsList,
    ok: { status: 200, description: 'The products', content: json(adminData(z.array(adminProduct), 'ConsoleProductList')) },
    errors: [...CONSOLE_ERRORS],
    errorDescriptions: APP_404,
  },
  consoleProductCreate: {
    tag: TAG,
    summary: 'Add a product',
    description: 'An active product of the app’s catalog: price in minor units, inventory null (or absent) for unlimited.',
    request: CHANGE.consoleProductCreate,
    ok: { status: 201, description: 'The product', content: product },
    errors: [...CONSOLE_ERRORS],
    errorDescriptions: APP_404,
  },
  consoleProductUpdate: {
    tag: TAG,
    summary: 'Change a product',
    description: 'Changes the fields sent (at least one); `{"active": false}` takes it out of the catalog.',
    request: CHANGE.consoleProductUpdate,
    ok: { status: 200, description: 'The product', content: product },
    errors: [...CONSOLE_ERRORS],
    errorDescriptions: APP_404,
  },
  consoleOrdersList: {
    tag: TAG,
    summary: 'List the app’s orders',
    description: 'Completed ACP checkouts, newest first, a page at a time: pass `nextCursor` as `cursor` for the next page (`null`: none left).',
    request: READ.consoleOrdersList,
    ok: {
      status: 200,
      description: 'A page of orders',
      content: json(z.object({ data: z.array(adminOrder), nextCursor: z.nullable(z.string()) }).meta({ title: 'ConsoleOrderPage' })),
    },
    errors: [...CONSOLE_ERRORS],
    errorDescriptions: APP_404,
  },
  consoleOrderGet: {
    tag: TAG,
    summary: 'Read an order',
    description: 'The order as the merchant sees it, with the ACP `Order` the agent platform sees.',
    request: READ.consoleOrderGet,
    ok: { status: 200, description: 'The order', content: order },
    errors: [...CONSOLE_ERRORS],
    errorDescriptions: APP_404,
  },
  consoleOrderEventsList: {
    tag: TAG,
    summary: 'An order’s events and their delivery log',
    description: 'The order events waiting for the agent platform’s receiver, and each delivery attempt, newest first.',
    request: READ.consoleOrderEventsList,
    ok: { status: 200, description: 'Pending events and attempts', content: json(adminData(adminOrderEvents, 'ConsoleOrderEventsAnswer')) },
    errors: [...CONSOLE_ERRORS],
    errorDescriptions: APP_404,
  },
  consoleOrderFulfill: {
    tag: TAG,
    summary: 'Record a fulfillment',
    description:
      'Units sent (every unit still to send when `lines` is absent): a shipment, with carrier and tracking, starts `shipped` unless recorded `delivered`; a digital delivery is delivered at once. The new fulfillment’s id (`ful_…`) is the last of `acpOrder.fulfillments`. The agent platform gets an `order_update`.',
    request: CHANGE.consoleOrderFulfill,
    ok: { status: 200, description: 'The order', content: order },
    errors: ORDER_CHANGE_ERRORS,
    errorDescriptions: APP_404,
  },
  consoleOrderDeliver: {
    tag: TAG,
    summary: 'Mark a shipment delivered',
    description: 'The fulfillment is delivered; the order is `completed` once every unit is delivered. The agent platform gets an `order_update`.',
    request: READ.consoleOrderDeliver,
    ok: { status: 200, description: 'The order', content: order },
    errors: ORDER_CHANGE_ERRORS,
    errorDescriptions: APP_404,
  },
  consoleOrderRefund: {
    tag: TAG,
    summary: 'Refund an order',
    description:
      'Refunds an amount (minor units, at most what is not refunded yet) through the payment provider; `lines` names units that came back, which return to stock.',
    request: CHANGE.consoleOrderRefund,
    ok: { status: 200, description: 'The order', content: order },
    errors: ORDER_CHANGE_ERRORS,
    errorDescriptions: APP_404,
  },
  consoleOrderCancel: {
    tag: TAG,
    summary: 'Cancel an order',
    description: 'Units not sent go back to stock; what was charged and not refunded is refunded unless `refund` is false. An empty body is an empty object.',
    request: CHANGE.consoleOrderCancel,
    ok: { status: 200, description: 'The order', content: order },
    errors: ORDER_CHANGE_ERRORS,
    errorDescriptions: APP_404,
  },
  consoleOrderWebhookGet: {
    tag: TAG,
    summary: 'Read the order-event receiver',
    description: 'The agent platform’s receiver of the app’s order events: its URL, never its secret; `data` is null when the app has none.',
    request: READ.consoleOrderWebhookGet,
    ok: { status: 200, description: 'The receiver, or null', content: json(adminData(z.nullable(adminOrderWebhook), 'ConsoleOrderWebhookRead')) },
    errors: [...CONSOLE_ERRORS],
    errorDescriptions: APP_404,
  },
  consoleOrderWebhookPut: {
    tag: TAG,
    summary: 'Set or rotate the order-event receiver',
    description:
      'The agent platform’s HTTPS receiver of the app’s order events and the secret they are signed with (`Merchant-Signature`): the one the agent platform issued, or, without `secret`, one made here and shown once. Setting it again replaces both.',
    request: CHANGE.consoleOrderWebhookPut,
    ok: { status: 200, description: 'The receiver (with the secret made here, once)', content: receiver },
    errors: [...CONSOLE_ERRORS, 503],
    errorDescriptions: { ...APP_404, 503: 'The URL’s host could not be resolved right now; try again' },
  },
  consoleOrderWebhookDelete: {
    tag: TAG,
    summary: 'Remove the order-event receiver',
    description: 'No more order events for the app; those waiting are dropped.',
    request: READ.consoleOrderWebhookDelete,
    ok: { status: 204, description: 'Removed' },
    errors: [...CONSOLE_ERRORS],
    errorDescriptions: APP_404,
  },
};
