/**
 * What every console handler reads of the browser: the session and login cookies, the custom header
 * a state-changing call must carry (docs/adr/0041), and where the request came from (for the audit log).
 * A later `consoleSession` auth kind of the console API reuses `requireSignedIn`.
 */
import { DomainError } from '../../kernel/domain/errors';
import type { HttpRequest } from '../../kernel/http/kit-request';
import type { ConsoleSession } from '../../tenancy/app/identity-ports';
import type { RequestOrigin } from '../../tenancy/app/act-on-org';
import { CONSOLE_CSRF_HEADER, readLoginCookie, readSessionCookie } from '../../tenancy/domain/console-session';
import type { ConsoleDeps } from '../app/console-ports';
import { requireConsoleSession } from '../../tenancy/app/console-sessions';

export const sessionIdOf = (req: HttpRequest): string | undefined => readSessionCookie(req.header('cookie'));
export const loginStateOf = (req: HttpRequest): string | undefined => readLoginCookie(req.header('cookie'));

/** The request's session, or 401. */
export function requireSignedIn(deps: ConsoleDeps, req: HttpRequest): Promise<ConsoleSession> {
  return requireConsoleSession(deps, sessionIdOf(req));
}

/** A state-changing call without the custom header is refused before anything else. */
export function requireConsoleHeader(req: HttpRequest): void {
  if (req.header(CONSOLE_CSRF_HEADER) === undefined) throw new DomainError('forbidden', `Missing ${CONSOLE_CSRF_HEADER} header`);
}

export const originOf = (req: HttpRequest): RequestOrigin => ({ ip: req.clientIp, userAgent: (req.header('user-agent') ?? '').slice(0, 512) });
