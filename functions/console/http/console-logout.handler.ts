import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { clearedSessionCookie } from '../../tenancy/domain/console-session';
import { endConsoleSession } from '../app/console-session-view';
import { consoleProductionDeps, type ConsoleFunctionDeps } from '../console-wiring';
import { CONSOLE_ROUTES } from '../console-routes';
import { CONSOLE_REQUESTS } from '../openapi/console-requests';
import { requireConsoleHeader, sessionIdOf } from './console-session-guard';

/**
 * POST /console/auth/logout (with the custom header, else 403): deletes the session, clears the cookie
 * and answers where to send the browser so the issuer ends its own session too (null if it cannot).
 */
export const createHandler = (deps: ConsoleFunctionDeps) =>
  httpRoute(CONSOLE_ROUTES.consoleLogout, deps, async (req) => {
    await readRequest(CONSOLE_REQUESTS.consoleLogout, req);
    requireConsoleHeader(req);
    const body = await endConsoleSession(deps, sessionIdOf(req));
    return { status: 200, body, headers: { 'Cache-Control': 'no-store' }, cookies: [clearedSessionCookie()] };
  });

export const handler = lambdaHandler(createHandler, consoleProductionDeps);
