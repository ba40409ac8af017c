/**
 * The request of GET /api/v1/models/{model}: the model id as sent. Area B judges it itself (a name
 * other than the key's app's is the chat turn's unknown-model 404), so the route declares no path shape.
 */
import { textParam } from '../../kernel/http/request-declaration';

export const MODEL_REQUESTS = {
  modelGet: { path: { model: textParam({ description: "The app's `appNameId`, the `model` its chat turns send" }) } },
};
