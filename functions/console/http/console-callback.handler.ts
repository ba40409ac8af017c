import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { clearedLoginCookie, sessionCookie } from '../../tenancy/domain/console-session';
import { completeConsoleLogin } from '../app/console-login';
import { consoleProductionDeps, type ConsoleFunctionDeps } from '../console-wiring';
import { CONSOLE_ROUTES } from '../console-routes';
import { CONSOLE_REQUESTS } from '../openapi/console-requests';
import { loginStateOf, originOf } from './console-session-guard';

/**
 * GET /console/auth/callback?code&state (or `error`): the issuer sends the browser back here. The state
 * is taken once and must be this browser's; the tokens are verified and the person signed in before the
 * session exists. Then the session cookie, the login cookie cleared, and a 302 to the return path.
 */
export const createHandler = (deps: ConsoleFunctionDeps) =>
  httpRoute(CONSOLE_ROUTES.consoleCallback, deps, async (req) => {
    const { query } = await readRequest(CONSOLE_REQUESTS.consoleCallback, req);
    const cookieState = loginStateOf(req);
    const { sessionId, returnPath } = await completeConsoleLogin(deps, {
      ...query,
      ...(cookieState !== undefined ? { cookieState } : {}),
      origin: originOf(req),
    });
    return { status: 302, headers: { Location: returnPath, 'Cache-Control': 'no-store' }, cookies: [sessionCookie(sessionId), clearedLoginCookie()] };
  });

export const handler = lambdaHandler(createHandler, consoleProductionDeps);
