/**
 * The requests of area C's console routes that change something, keyed by route id: the same bodies
 * as the admin API's (acp-admin-requests.ts), under the org's app. The console refuses undeclared
 * query parameters (`strictQuery`).
 */
import { zodBody } from '../../kernel/http/validation';
import { uuidPathId } from '../../kernel/http/request-declaration';
import { cancelBody, fulfillBody, orderWebhookBody, productCreateBody, productUpdateBody, refundBody } from './acp-admin-requests';
import { consoleApp, consoleOrder } from './acp-console-read-requests';

export const ACP_CONSOLE_REQUESTS = {
  consoleProductCreate: { path: consoleApp, body: zodBody(productCreateBody, { required: true }) },
  consoleProductUpdate: { path: { ...consoleApp, productId: uuidPathId('productId') }, body: zodBody(productUpdateBody, { required: true }) },
  consoleOrderFulfill: { path: consoleOrder, body: zodBody(fulfillBody, { required: true }) },
  consoleOrderRefund: { path: consoleOrder, body: zodBody(refundBody, { required: true }) },
  consoleOrderCancel: { path: consoleOrder, body: zodBody(cancelBody, { emptyAsObject: true }) },
  consoleOrderWebhookPut: { path: consoleApp, body: zodBody(orderWebhookBody, { required: true }) },
};
