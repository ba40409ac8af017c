/**
 * What the console's sign-in routes need: the issuer's code-flow client and verifier, the session and
 * login-state stores (docs/adr/0041), and the members' stores that `signIn` and the session's org list read.
 */
import type { ConsoleIdentityPorts } from '../../tenancy/app/identity-ports';
import type { MembersDeps } from '../../tenancy/app/members-ports';

export type { ConsoleAuth } from '../../tenancy/app/identity-ports';

export interface ConsoleDeps extends MembersDeps, ConsoleIdentityPorts {}
