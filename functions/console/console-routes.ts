/**
 * The console's backend-for-frontend routes: sign-in over OpenID Connect (docs/adr/0041). Public to the
 * gateway: the handlers check the session cookie themselves (http/console-session-guard.ts).
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { routeTable } from '../kernel/route-vocabulary';

const AUTH = '/console/auth';

const common = {
  area: 'console',
  auth: 'public',
  rateLimit: 'consoleIp',
  grants: ['table:read', 'table:write', 'secrets:seal', 'secrets:open', 'identity:read'],
} as const;

export const CONSOLE_ROUTES = routeTable({
  consoleLogin: { ...common, method: 'GET', path: `${AUTH}/login`, handler: 'console/http/console-login', body: 'none' },
  consoleCallback: { ...common, method: 'GET', path: `${AUTH}/callback`, handler: 'console/http/console-callback', body: 'none' },
  consoleSession: { ...common, method: 'GET', path: `${AUTH}/session`, handler: 'console/http/console-session', body: 'none' },
  consoleLogout: { ...common, method: 'POST', path: `${AUTH}/logout`, handler: 'console/http/console-logout', body: 'none' },
});
