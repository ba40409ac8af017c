/**
 * Which OpenID issuer the local console trusts (docs/adr/0041): by default the embedded provider,
 * started on its own loopback port; with `CONSOLE_OIDC_ISSUER` set, any other issuer (a Cognito user
 * pool, Keycloak, …) and no embedded provider. The provider's module loads only when it runs.
 */
import { writeFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IdentityIssuer } from '../tenancy/app/identity-ports';
import type { MembersDeps } from '../tenancy/app/members-ports';
import { normaliseEmail, userKeyOf } from '../tenancy/domain/members';
import type { ConsoleUser } from './console-accounts';

/** What the console's backend needs to sign people in, whichever issuer it is. */
export interface ConsoleSignInSettings {
  readonly issuer: IdentityIssuer;
  readonly clientSecret: string;
  readonly redirectUri: string;
  readonly postLogoutRedirectUri: string;
  readonly scopes: readonly string[];
  readonly resource?: string;
}

export type ConsoleSignInOption =
  | { readonly kind: 'embedded'; readonly port: number }
  | {
      readonly kind: 'external';
      readonly issuer: IdentityIssuer;
      readonly clientSecret: string;
      readonly scopes: readonly string[];
    };

export interface RunningConsoleSignIn {
  readonly settings: ConsoleSignInSettings;
  /** The embedded provider's seeded people; none for another issuer. */
  readonly users: readonly ConsoleUser[];
  stop(): Promise<void>;
}

export async function startConsoleSignIn(
  option: ConsoleSignInOption,
  ctx: { readonly dataDir: string; readonly host: string; readonly consoleBaseUrl: string },
): Promise<RunningConsoleSignIn> {
  if (option.kind === 'external') {
    return {
      settings: {
        issuer: option.issuer,
        clientSecret: option.clientSecret,
        redirectUri: `${ctx.consoleBaseUrl}/console/auth/callback`,
        postLogoutRedirectUri: `${ctx.consoleBaseUrl}/console/`,
        scopes: option.scopes,
      },
      users: [],
      stop: async () => {},
    };
  }
  const { startEmbeddedOidcProvider } = await import('./embedded-oidc-provider');
  return startEmbeddedOidcProvider({ dataDir: ctx.dataDir, host: ctx.host, port: option.port, consoleBaseUrl: ctx.consoleBaseUrl });
}

/** The console's address: its pages offer sign-in to whoever is not signed in. */
export const consoleUrlOf = (baseUrl: string): string => `${baseUrl}/console/`;

/** Adds the console's address, the issuer and the seeded people to `demo.json`, beside what seed.ts wrote. */
export function recordConsoleSignIn(dataDir: string, signIn: RunningConsoleSignIn): void {
  const file = join(dataDir, 'demo.json');
  if (!existsSync(file)) return;
  const demo = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const consoleUsers = signIn.users.map(({ role, email, password }) => ({ role, email, password }));
  const consoleUrl = consoleUrlOf(String(demo.baseUrl));
  writeFileSync(file, `${JSON.stringify({ ...demo, consoleUrl, oidcIssuer: signIn.settings.issuer.issuer, consoleUsers }, null, 2)}\n`, { mode: 0o600 });
}

/**
 * Makes the issuer's seeded people members of the demo org with their role, so each signs in to it
 * (the newcomer stays in no org, to be invited). Idempotent: every start writes the same items.
 */
export async function seedConsoleMembers(deps: Pick<MembersDeps, 'members' | 'clock'>, orgId: string, signIn: RunningConsoleSignIn): Promise<void> {
  const issuer = signIn.settings.issuer.issuer;
  for (const user of signIn.users) {
    if (!user.role) continue;
    const userKey = userKeyOf({ issuer, subject: user.subject });
    if (await deps.members.get(orgId, userKey)) continue;
    await deps.members.put({ orgId, userKey, email: normaliseEmail(user.email), role: user.role, joinedAtUs: deps.clock.nowUs() });
    if (user.role === 'owner') await deps.members.addOwner(orgId, userKey);
  }
}
