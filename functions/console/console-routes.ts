/**
 * The console's backend-for-frontend routes: sign-in over OpenID Connect (docs/adr/0041). Public to the
 * gateway: the handlers check the session cookie themselves (http/console-session-guard.ts).
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { routeTable } from '../kernel/route-vocabulary';

const AUTH = '/console/auth';

const common = { area: 'console', auth: 'public', rateLimit: 'consoleIp', body: 'none' } as const;

// Each function gets what it touches: the issuer (identity:read), and sealing tokens into a new session
// or opening them from one.
export const CONSOLE_ROUTES = routeTable({
  consoleLogin: {
    ...common,
    method: 'GET',
    path: `${AUTH}/login`,
    handler: 'console/http/console-login',
    grants: ['table:read', 'table:write', 'identity:read'],
  },
  consoleCallback: {
    ...common,
    method: 'GET',
    path: `${AUTH}/callback`,
    handler: 'console/http/console-callback',
    grants: ['table:read', 'table:write', 'sessions:seal', 'identity:read'],
  },
  consoleSession: {
    ...common,
    method: 'GET',
    path: `${AUTH}/session`,
    handler: 'console/http/console-session',
    grants: ['table:read', 'table:write', 'sessions:seal', 'sessions:open', 'identity:read'],
  },
  consoleLogout: {
    ...common,
    method: 'POST',
    path: `${AUTH}/logout`,
    handler: 'console/http/console-logout',
    grants: ['table:read', 'table:write', 'sessions:open', 'identity:read'],
  },
});
