import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { viewConsoleSession } from '../app/console-session-view';
import { consoleProductionDeps, type ConsoleFunctionDeps } from '../console-wiring';
import { CONSOLE_ROUTES } from '../console-routes';
import { requireSignedIn } from './console-session-guard';

/** GET /console/auth/session: the signed-in person and their orgs with role and permissions, or 401. */
export const createHandler = (deps: ConsoleFunctionDeps) =>
  httpRoute(CONSOLE_ROUTES.consoleSession, deps, async (req) => {
    const session = await requireSignedIn(deps, req);
    return { status: 200, body: await viewConsoleSession(deps, session), headers: { 'Cache-Control': 'no-store' } };
  });

export const handler = lambdaHandler(createHandler, consoleProductionDeps);
