import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { loginCookie } from '../../tenancy/domain/console-session';
import { beginConsoleLogin } from '../app/console-login';
import { consoleProductionDeps, type ConsoleFunctionDeps } from '../console-wiring';
import { CONSOLE_ROUTES } from '../console-routes';
import { CONSOLE_REQUESTS } from '../openapi/console-requests';

/**
 * GET /console/auth/login[?return=<path>]: stores a login state, binds it to this browser with the
 * login cookie and sends the browser to the issuer's authorization URL.
 */
export const createHandler = (deps: ConsoleFunctionDeps) =>
  httpRoute(CONSOLE_ROUTES.consoleLogin, deps, async (req) => {
    const { query } = await readRequest(CONSOLE_REQUESTS.consoleLogin, req);
    const login = await beginConsoleLogin(deps, query.return !== undefined ? { returnPath: query.return } : {});
    return { status: 302, headers: { Location: login.url, 'Cache-Control': 'no-store' }, cookies: [loginCookie(login.state)] };
  });

export const handler = lambdaHandler(createHandler, consoleProductionDeps);
