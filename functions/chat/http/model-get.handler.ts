import { modelView } from './model-presenters';
import { requireKeyModel } from '../domain/request-fields';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { MODEL_REQUESTS } from '../openapi/model-requests';
import { modelProductionDeps, type ModelFunctionDeps } from '../wiring/model-wiring';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * GET /api/v1/models/{model}: the key's app as an OpenAI model when `{model}` is its `appNameId`; any
 * other name is the 404 a chat turn with that `model` gets, so a client learns the same either way.
 */
export const createHandler = (deps: ModelFunctionDeps) =>
  httpRoute(CHAT_ROUTES.modelGet, deps, async (req) => {
    const { path } = await readRequest(MODEL_REQUESTS.modelGet, req);
    const app = req.chat!.app;
    requireKeyModel(path.model, app.appNameId);
    return { status: 200, body: modelView(app) };
  });

export const handler = lambdaHandler(createHandler, modelProductionDeps);
