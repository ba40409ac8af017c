import { modelView } from './model-presenters';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { modelProductionDeps, type ModelFunctionDeps } from '../wiring/model-wiring';
import { CHAT_ROUTES } from '../chat-routes';

/**
 * GET /api/v1/models: the models a chat key may send, in OpenAI's list shape. A key belongs to one app,
 * so the list is that app; clients that check their `model` against the list before a turn find it.
 */
export const createHandler = (deps: ModelFunctionDeps) =>
  httpRoute(CHAT_ROUTES.modelsList, deps, async (req) => ({ status: 200, body: { object: 'list', data: [modelView(req.chat!.app)] } }));

export const handler = lambdaHandler(createHandler, modelProductionDeps);
