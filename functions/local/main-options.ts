/**
 * The options `npm start` runs the local platform with, read from the environment (README,
 * "Configuration"). Kept apart from main.ts so a test can prove what they can and cannot turn on:
 * none of them reaches the webhook SSRF exceptions, which only test wiring sets.
 *
 * `PLATFORM_DEV_WEBHOOKS=1` is the development switch of `npm run admin -- webhooks listen`: it turns
 * on `devWebhookListeners`, nothing else. The platform then accepts listener registrations from this
 * machine (admin token, loopback peer) that present the self-signed certificate they register, and its
 * queue workers deliver to exactly the URL it built for each (127.0.0.1, that port), trusting that
 * certificate for that URL alone (functions/local/dev-webhook-listeners.ts).
 * Every other callback, public subscriptions to loopback included, stays refused. Unset, empty or `0`:
 * off, as strict as on AWS. Any other value is a configuration error. It exists only in this local
 * process: the Lambda environment schema (functions/kernel/env.ts) has no such variable.
 */
import { ENV_DEFAULTS, normalizeBaseUrl } from '../kernel/env';
import type { PlatformOptions } from './local-platform';
import type { ConsoleSignInOption } from './console-sign-in';

export class ConfigError extends Error {}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function devSwitch(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  throw new ConfigError(`${name} must be 1 (on) or 0 (off), got "${raw}"`);
}

/** `PUBLIC_BASE_URL`: the `{base_url}` clients reach this platform at (behind a proxy, say). */
function baseUrlFrom(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.PUBLIC_BASE_URL;
  if (raw === undefined || raw === '') return undefined;
  const url = normalizeBaseUrl(raw);
  if (url === undefined)
    throw new ConfigError(`PUBLIC_BASE_URL must be an http(s) URL with no query or credentials, such as https://api.example.com, got "${raw}"`);
  return url;
}

export function localPlatformOptions(env: NodeJS.ProcessEnv): PlatformOptions {
  const publicBaseUrl = baseUrlFrom(env);
  const port = intFrom(env, 'PORT', 3000);
  return {
    dataDir: env.DATA_DIR ?? '.data',
    port,
    host: env.HOST ?? '127.0.0.1',
    persist: true,
    timers: true,
    seed: true,
    visibilityDelayMs: intFrom(env, 'VISIBILITY_DELAY_MS', ENV_DEFAULTS.visibilityDelayMsLocal),
    anonRetentionDays: intFrom(env, 'ANON_RETENTION_DAYS', ENV_DEFAULTS.anonRetentionDays),
    emptySessionMaxAgeHours: intFrom(env, 'EMPTY_SESSION_MAX_AGE_HOURS', ENV_DEFAULTS.emptySessionMaxAgeHours),
    appDeletionBatchSize: intFrom(env, 'APP_DELETION_BATCH_SIZE', ENV_DEFAULTS.appDeletionBatchSize),
    ...(env.ADMIN_TOKEN ? { adminToken: env.ADMIN_TOKEN } : {}),
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    ...(devSwitch(env, 'PLATFORM_DEV_WEBHOOKS') ? { devWebhookListeners: true } : {}),
    ...modelServerFrom(env),
    consoleSignIn: consoleSignInFrom(env, port),
  };
}

/**
 * The console's OpenID issuer (docs/adr/0041). Unset `CONSOLE_OIDC_ISSUER`: the embedded provider on
 * `OIDC_PORT` (default the platform's port plus one, or any free port when `PORT=0`), with the seeded people of demo.json. Set: that issuer, with
 * `CONSOLE_OIDC_CLIENT_ID` and `CONSOLE_OIDC_CLIENT_SECRET` (a confidential client whose callback is
 * `<base URL>/console/auth/callback`), `CONSOLE_OIDC_SCOPES` (default `openid email`) and
 * `CONSOLE_OIDC_AUDIENCE`: the `aud` of its JWT access tokens, or unset for Cognito's (no `aud`,
 * `client_id` and `token_use: "access"`).
 */
function consoleSignInFrom(env: NodeJS.ProcessEnv, platformPort: number): ConsoleSignInOption {
  const issuer = env.CONSOLE_OIDC_ISSUER?.trim();
  if (!issuer) return { kind: 'embedded', port: intFrom(env, 'OIDC_PORT', platformPort === 0 ? 0 : platformPort + 1) };
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError(`CONSOLE_OIDC_ISSUER must be the issuer's URL, such as https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc, got "${issuer}"`);
  }
  if (url.protocol !== 'https:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    throw new ConfigError(`CONSOLE_OIDC_ISSUER must be https (or http on this machine), got "${issuer}"`);
  }
  const clientId = env.CONSOLE_OIDC_CLIENT_ID?.trim();
  const clientSecret = env.CONSOLE_OIDC_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) throw new ConfigError('CONSOLE_OIDC_ISSUER is set: set CONSOLE_OIDC_CLIENT_ID and CONSOLE_OIDC_CLIENT_SECRET too');
  const audience = env.CONSOLE_OIDC_AUDIENCE?.trim();
  return {
    kind: 'external',
    issuer: { issuer, clientId, accessToken: audience ? { kind: 'audience', audience } : { kind: 'cognito' } },
    clientSecret,
    scopes: (env.CONSOLE_OIDC_SCOPES?.trim() || 'openid email').split(/\s+/),
  };
}

/**
 * `OPENAI_BASE_URL` (and `OPENAI_API_KEY` if the server wants one): the OpenAI-compatible model server
 * that apps whose model is `openai:<name>` talk to, such as a local Ollama or vLLM at http://127.0.0.1.
 */
function modelServerFrom(env: NodeJS.ProcessEnv): Pick<PlatformOptions, 'openAiBaseUrl' | 'openAiApiKey'> {
  const raw = env.OPENAI_BASE_URL?.trim();
  const key = env.OPENAI_API_KEY?.trim();
  if (raw === undefined || raw === '') {
    if (key) throw new ConfigError('OPENAI_API_KEY is set but OPENAI_BASE_URL is not: set the model server URL too, such as http://127.0.0.1:11434/v1');
    return {};
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`OPENAI_BASE_URL must be an http(s) URL, such as http://127.0.0.1:11434/v1, got "${raw}"`);
  }
  // The adapter appends /chat/completions to it: a query, a fragment or credentials could never work.
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`OPENAI_BASE_URL must be an http(s) URL with no query, fragment or credentials, such as http://127.0.0.1:11434/v1, got "${raw}"`);
  }
  return { openAiBaseUrl: raw.replace(/\/+$/, ''), ...(key ? { openAiApiKey: key } : {}) };
}
