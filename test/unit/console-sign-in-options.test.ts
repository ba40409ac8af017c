/** What `npm start` reads from the environment for the console's sign-in (functions/local/main-options.ts). */
import { describe, expect, it } from 'vitest';
import { ConfigError, localPlatformOptions } from '../../functions/local/main-options';

describe('localPlatformOptions: the console sign-in', () => {
  it('runs the embedded provider on the port after the platform, any free one with PORT=0, or OIDC_PORT', () => {
    expect(localPlatformOptions({}).consoleSignIn).toEqual({ kind: 'embedded', port: 3001 });
    expect(localPlatformOptions({ PORT: '8080' }).consoleSignIn).toEqual({ kind: 'embedded', port: 8081 });
    expect(localPlatformOptions({ PORT: '0' }).consoleSignIn).toEqual({ kind: 'embedded', port: 0 });
    expect(localPlatformOptions({ OIDC_PORT: '4444' }).consoleSignIn).toEqual({ kind: 'embedded', port: 4444 });
  });

  it('trusts another issuer with its client, Cognito access tokens unless an audience is given', () => {
    const base = {
      CONSOLE_OIDC_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc',
      CONSOLE_OIDC_CLIENT_ID: 'c',
      CONSOLE_OIDC_CLIENT_SECRET: 's',
    };
    expect(localPlatformOptions(base).consoleSignIn).toEqual({
      kind: 'external',
      issuer: { issuer: base.CONSOLE_OIDC_ISSUER, clientId: 'c', accessToken: { kind: 'cognito' } },
      clientSecret: 's',
      scopes: ['openid', 'email'],
    });
    const keycloak = localPlatformOptions({ ...base, CONSOLE_OIDC_AUDIENCE: 'console-api', CONSOLE_OIDC_SCOPES: 'openid email profile' }).consoleSignIn;
    expect(keycloak).toMatchObject({ issuer: { accessToken: { kind: 'audience', audience: 'console-api' } }, scopes: ['openid', 'email', 'profile'] });
  });

  it('refuses an issuer without its client, a non-URL, and plain http off this machine', () => {
    for (const env of [
      { CONSOLE_OIDC_ISSUER: 'https://issuer.example' },
      { CONSOLE_OIDC_ISSUER: 'https://issuer.example', CONSOLE_OIDC_CLIENT_ID: 'c' },
      { CONSOLE_OIDC_ISSUER: 'not a url', CONSOLE_OIDC_CLIENT_ID: 'c', CONSOLE_OIDC_CLIENT_SECRET: 's' },
      { CONSOLE_OIDC_ISSUER: 'http://issuer.example', CONSOLE_OIDC_CLIENT_ID: 'c', CONSOLE_OIDC_CLIENT_SECRET: 's' },
    ]) {
      expect(() => localPlatformOptions(env), JSON.stringify(env)).toThrow(ConfigError);
    }
    expect(
      localPlatformOptions({ CONSOLE_OIDC_ISSUER: 'http://localhost:8080/realms/x', CONSOLE_OIDC_CLIENT_ID: 'c', CONSOLE_OIDC_CLIENT_SECRET: 's' })
        .consoleSignIn?.kind,
    ).toBe('external');
  });
});
