/**
 * The console's sign-in requests, one declaration per operation (keyed by route id): the handlers read
 * with it and the OpenAPI document shows it. Undeclared query names are ignored (an issuer may add its
 * own to the callback, as RFC 9207's `iss`). The cookies are read by the handlers, not declared here.
 */
import { textParam, type RequestDeclaration } from '../../kernel/http/request-declaration';

/** Longer values name no real code, state or path: they are cut off before they reach a store or a log. */
const text = (description: string, maxLength: number) => textParam({ maxLength, description });

export const CONSOLE_REQUESTS = {
  consoleLogin: {
    query: { return: text('A path of the console to land on after signing in (anything else lands on /console/)', 2048) },
  },
  consoleCallback: {
    query: {
      code: text('The authorization code the issuer sent', 4096),
      state: text('The login’s state, as the issuer sent it back', 256),
      error: text('The issuer’s error code, when it refused the sign-in', 256),
    },
  },
  consoleLogout: {
    headers: { 'x-console-request': text('Must be present (any value, `1` by convention): a cross-site form cannot send it', 16) },
  },
} as const satisfies Readonly<Record<string, RequestDeclaration>>;
