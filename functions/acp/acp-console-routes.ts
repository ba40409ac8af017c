/**
 * The console routes of area C: the ACP catalog, the orders after the sale and the order-event receiver
 * of an app of the member's org, each with the permission of the one table its caller's role needs.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { CONSOLE_API_BASE as CONSOLE } from '../kernel/domain/console-api-base';
import { uuidPathParam } from '../kernel/domain/ids';
import { consoleApiRoute, routeTable, type Grant, type RouteDef } from '../kernel/route-vocabulary';
import type { Permission } from '../tenancy/domain/roles';
import { APP_ID, FULFILLMENT_ID, ORDER_ID, PRODUCT_ID } from './acp-routes';

const CONSOLE_APP = `${CONSOLE}/orgs/{orgId}/apps/{appId}`;
const CONSOLE_APP_PARAMS = { orgId: uuidPathParam('The org’s id (a UUID)'), appId: APP_ID };
const CONSOLE_ORDER = { ...CONSOLE_APP_PARAMS, orderId: ORDER_ID };
/** What an order change needs: the change and its event, the order-events queue, and the payment provider for refunds. */
const ORDER_CHANGE_GRANTS: readonly Grant[] = ['table:read', 'table:write', 'order-events:send', 'payments:charge'];

/**
 * A console route of area C: the permission from the one table, and the table (every console call is
 * counted, and a change is written to the audit log) unless the route needs more.
 */
const acpConsole = (
  permission: Permission,
  route: Omit<RouteDef, 'id' | 'area' | 'auth' | 'rateLimit' | 'permission' | 'grants'> & { readonly grants?: readonly Grant[] },
) => consoleApiRoute({ permission, grants: ['table:read', 'table:write'], ...route });

export const ACP_CONSOLE_ROUTES = routeTable({
  consoleProductsList: acpConsole('catalog.read', {
    method: 'GET',
    path: `${CONSOLE_APP}/products`,
    pathParams: CONSOLE_APP_PARAMS,
    handler: 'acp/http/console-products-list',
    body: 'none',
  }),
  consoleProductCreate: acpConsole('catalog.manage', {
    method: 'POST',
    path: `${CONSOLE_APP}/products`,
    pathParams: CONSOLE_APP_PARAMS,
    handler: 'acp/http/console-product-create',
    body: 'json',
  }),
  consoleProductUpdate: acpConsole('catalog.manage', {
    method: 'PATCH',
    path: `${CONSOLE_APP}/products/{productId}`,
    pathParams: { ...CONSOLE_APP_PARAMS, productId: PRODUCT_ID },
    handler: 'acp/http/console-product-update',
    body: 'json',
  }),
  consoleOrdersList: acpConsole('orders.read', {
    method: 'GET',
    path: `${CONSOLE_APP}/orders`,
    pathParams: CONSOLE_APP_PARAMS,
    handler: 'acp/http/console-orders-list',
    body: 'none',
  }),
  consoleOrderGet: acpConsole('orders.read', {
    method: 'GET',
    path: `${CONSOLE_APP}/orders/{orderId}`,
    pathParams: CONSOLE_ORDER,
    handler: 'acp/http/console-order-get',
    body: 'none',
  }),
  consoleOrderEventsList: acpConsole('orders.read', {
    method: 'GET',
    path: `${CONSOLE_APP}/orders/{orderId}/events`,
    pathParams: CONSOLE_ORDER,
    handler: 'acp/http/console-order-events-list',
    body: 'none',
  }),
  // Fulfilling and delivering change what the buyer's agent platform is told, as refunds and cancels
  // do: every order change is `orders.manage` (developers and viewers read orders only).
  consoleOrderFulfill: acpConsole('orders.manage', {
    method: 'POST',
    path: `${CONSOLE_APP}/orders/{orderId}/fulfillments`,
    pathParams: CONSOLE_ORDER,
    handler: 'acp/http/console-order-fulfill',
    body: 'json',
    grants: ORDER_CHANGE_GRANTS,
  }),
  consoleOrderDeliver: acpConsole('orders.manage', {
    method: 'POST',
    path: `${CONSOLE_APP}/orders/{orderId}/fulfillments/{fulfillmentId}/deliver`,
    pathParams: { ...CONSOLE_ORDER, fulfillmentId: FULFILLMENT_ID },
    handler: 'acp/http/console-order-deliver',
    body: 'none',
    grants: ORDER_CHANGE_GRANTS,
  }),
  consoleOrderRefund: acpConsole('orders.manage', {
    method: 'POST',
    path: `${CONSOLE_APP}/orders/{orderId}/refunds`,
    pathParams: CONSOLE_ORDER,
    handler: 'acp/http/console-order-refund',
    body: 'json',
    grants: ORDER_CHANGE_GRANTS,
  }),
  consoleOrderCancel: acpConsole('orders.manage', {
    method: 'POST',
    path: `${CONSOLE_APP}/orders/{orderId}/cancel`,
    pathParams: CONSOLE_ORDER,
    handler: 'acp/http/console-order-cancel',
    body: 'json',
    grants: ORDER_CHANGE_GRANTS,
  }),
  consoleOrderWebhookGet: acpConsole('orders.read', {
    method: 'GET',
    path: `${CONSOLE_APP}/acp/order-webhook`,
    pathParams: CONSOLE_APP_PARAMS,
    handler: 'acp/http/console-order-webhook-get',
    body: 'none',
  }),
  consoleOrderWebhookPut: acpConsole('orders.manage', {
    method: 'PUT',
    path: `${CONSOLE_APP}/acp/order-webhook`,
    pathParams: CONSOLE_APP_PARAMS,
    handler: 'acp/http/console-order-webhook-put',
    body: 'json',
    grants: ['table:read', 'table:write', 'secrets:seal'],
  }),
  consoleOrderWebhookDelete: acpConsole('orders.manage', {
    method: 'DELETE',
    path: `${CONSOLE_APP}/acp/order-webhook`,
    pathParams: CONSOLE_APP_PARAMS,
    handler: 'acp/http/console-order-webhook-delete',
    body: 'none',
  }),
});
