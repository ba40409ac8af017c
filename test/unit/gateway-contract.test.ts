import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createKeyAuthorizer } from '../../functions/tenancy/authorizers/key-authorizer';
import { MISSING_KEY_MESSAGE, type KeyClass } from '../../functions/kernel/domain/auth-messages';
import { CREDENTIAL_PREFIX, hashCredential, type StoredCredential } from '../../functions/tenancy/domain/credentials';
import type { ErrorArea } from '../../functions/kernel/domain/error-bodies';
import { RATE_LIMITS } from '../../functions/kernel/domain/rate-limits';
import {
  gatewayAnswers,
  gatewayTemplate,
  renderGatewayAnswer,
  usagePlanThrottle,
  type GatewayAnswer,
  type GatewayResponseType,
} from '../../functions/kernel/http/api-gateway-contract';
import type { CredentialStore } from '../../functions/tenancy/app/tenancy-ports';

/**
 * The contract functions/kernel/http/api-gateway-contract.ts states between the functions and API Gateway: the usage-plan
 * numbers, the table of gateway answers, and the parity between the VTL templates API Gateway renders
 * and the bodies the local server sends for the same answer.
 */

const ALL_TYPES: readonly GatewayResponseType[] = [
  'UNAUTHORIZED',
  'ACCESS_DENIED',
  'AUTHORIZER_FAILURE',
  'AUTHORIZER_CONFIGURATION_ERROR',
  'INVALID_API_KEY',
  'THROTTLED',
  'QUOTA_EXCEEDED',
  'WAF_FILTERED',
  'MISSING_AUTHENTICATION_TOKEN',
  'RESOURCE_NOT_FOUND',
  'REQUEST_TOO_LARGE',
  'DEFAULT_4XX',
  'DEFAULT_5XX',
];

/** The key class whose authorizer fronts each area (lib/constructs/area-api.ts: the first of its routes'). */
const AREAS: readonly (readonly [ErrorArea, KeyClass | undefined])[] = [
  ['export', 'orgKey'],
  ['chat', 'chatKey'],
  ['acp', 'acpKey'],
  ['releaseNotes', undefined],
];

/** What API Gateway does to a template: substitute the context variables (no VTL functions run). */
function renderVtl(template: string, vars: { errorCode: string; errorMessage: string; gatewayMessage: string }): string {
  return template
    .replaceAll('$context.authorizer.errorCode', vars.errorCode)
    .replaceAll('$context.authorizer.errorMessage', vars.errorMessage)
    .replaceAll('$context.error.messageString', JSON.stringify(vars.gatewayMessage));
}

describe('usagePlanThrottle', () => {
  it('gives org and chat keys 2.5 rps with a 240 bucket, and ACP keys 1.25 rps with a 120 bucket', () => {
    expect(usagePlanThrottle('orgKey')).toEqual({ rateLimit: 2.5, burstLimit: 240 });
    expect(usagePlanThrottle('chatKey')).toEqual({ rateLimit: 2.5, burstLimit: 240 });
    expect(usagePlanThrottle('acpKey')).toEqual({ rateLimit: 1.25, burstLimit: 120 });
  });

  it.each(['orgKey', 'chatKey', 'acpKey'] as const)('%s: never refuses what the exact per-minute limit admits', (keyClass) => {
    const { limit, windowMs } = RATE_LIMITS[keyClass];
    expect(windowMs).toBe(60_000);
    const { rateLimit, burstLimit } = usagePlanThrottle(keyClass);
    expect(rateLimit * 60).toBeGreaterThanOrEqual(limit);
    // Two full windows back to back across a boundary: 2 x limit within about a second.
    expect(burstLimit).toBeGreaterThanOrEqual(2 * limit);
  });
});

describe('gatewayAnswers', () => {
  it.each([['orgKey'], ['chatKey'], ['acpKey'], [undefined]] as const)('answers every gateway response type (key class %s)', (keyClass) => {
    expect(Object.keys(gatewayAnswers(keyClass)).sort()).toEqual([...ALL_TYPES].sort());
  });

  it('tells a caller with no key how to send one, in the words of its key class', () => {
    expect(gatewayAnswers('orgKey').UNAUTHORIZED).toEqual({ status: 401, code: 'unauthorized', message: MISSING_KEY_MESSAGE.orgKey });
    expect(gatewayAnswers('chatKey').UNAUTHORIZED).toEqual({ status: 401, code: 'unauthorized', message: MISSING_KEY_MESSAGE.chatKey });
    expect(gatewayAnswers('acpKey').UNAUTHORIZED).toEqual({ status: 401, code: 'unauthorized', message: MISSING_KEY_MESSAGE.acpKey });
    expect(MISSING_KEY_MESSAGE.acpKey).toBe('Missing API key: send Authorization: Bearer <ACP_API_KEY>');
    expect(gatewayAnswers(undefined).UNAUTHORIZED).toEqual({ status: 401, code: 'unauthorized', message: 'Invalid API key' });
  });

  it('gives the 429s a fixed Retry-After, and no other answer one', () => {
    const answers = gatewayAnswers('orgKey');
    expect(renderGatewayAnswer('export', answers.THROTTLED)).toEqual({
      status: 429,
      body: { error: { code: 'rate_limited', message: 'Rate limit exceeded' } },
      headers: { 'Retry-After': '1' },
    });
    expect(renderGatewayAnswer('export', answers.QUOTA_EXCEEDED)).toEqual({
      status: 429,
      body: { error: { code: 'rate_limited', message: 'Rate limit exceeded' } },
      headers: { 'Retry-After': '60' },
    });
    const withRetry = ALL_TYPES.filter((t) => answers[t].retryAfterSeconds !== undefined);
    expect(withRetry).toEqual(['INVALID_API_KEY', 'THROTTLED', 'QUOTA_EXCEEDED']);
    expect(renderGatewayAnswer('export', answers.INVALID_API_KEY).headers).toEqual({ 'Retry-After': '30' });
    for (const t of ALL_TYPES) if (answers[t].status === 429) expect(answers[t].retryAfterSeconds, t).toBeGreaterThan(0);
  });

  it("answers an authorizer failure as a 500 in each area's shape, with no Retry-After", () => {
    for (const [area, keyClass] of AREAS) {
      const rendered = renderGatewayAnswer(area, gatewayAnswers(keyClass).AUTHORIZER_FAILURE);
      expect(rendered.status, area).toBe(500);
      expect(rendered.headers, area).toEqual({});
    }
    expect(renderGatewayAnswer('export', gatewayAnswers('orgKey').AUTHORIZER_FAILURE).body).toEqual({
      error: { code: 'unavailable', message: 'Internal server error' },
    });
    expect(renderGatewayAnswer('chat', gatewayAnswers('chatKey').AUTHORIZER_FAILURE).body).toEqual({ error: 'Internal server error' });
  });

  it('keeps the status API Gateway chose for the DEFAULT_* families (the local server answers 400 for 4XX)', () => {
    const answers = gatewayAnswers('orgKey');
    expect(answers.DEFAULT_4XX.status).toBeUndefined();
    expect(answers.DEFAULT_5XX.status).toBeUndefined();
    expect(renderGatewayAnswer('export', answers.DEFAULT_4XX, { gatewayMessage: 'Unsupported Media Type' })).toEqual({
      status: 400,
      body: { error: { code: 'bad_request', message: 'Unsupported Media Type' } },
      headers: {},
    });
  });
});

/** Deny contexts as the real authorizers build them (expired, revoked, missing), per area. */
async function denyContexts(keyClass: KeyClass, area: ErrorArea): Promise<Record<string, unknown>[]> {
  const kind = keyClass === 'orgKey' ? 'org' : keyClass === 'chatKey' ? 'chat' : 'acp';
  const now = Date.parse('2026-11-02T10:00:00Z') * 1000;
  const expiredKey = `${CREDENTIAL_PREFIX[kind]}${'e'.repeat(40)}`;
  const revokedKey = `${CREDENTIAL_PREFIX[kind]}${'r'.repeat(40)}`;
  const base = { kind, orgId: 'org-1', scopes: [], displayPrefix: 'x', createdAtUs: now - 10, ...(kind === 'org' ? {} : { appId: 'app-1' }) };
  const creds: StoredCredential[] = [
    { ...base, id: 'k-exp', hash: hashCredential(expiredKey), expiresAtUs: now - 1 } as StoredCredential,
    { ...base, id: 'k-rev', hash: hashCredential(revokedKey), revokedAtUs: now - 1 } as StoredCredential,
  ];
  const credentials = { findByHash: async (h: string) => creds.find((c) => c.hash === h) } as unknown as CredentialStore;
  const authorize = createKeyAuthorizer({ credentials, clock: { nowUs: () => now }, logger: new Logger({ logLevel: 'SILENT' }) }, keyClass, area);
  const event = (authorization?: string) =>
    ({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/x',
      headers: authorization ? { Authorization: authorization } : {},
    }) as unknown as APIGatewayRequestAuthorizerEvent;
  const out: Record<string, unknown>[] = [];
  for (const header of [`Bearer ${expiredKey}`, `Bearer ${revokedKey}`, 'Basic dXNlcjpwYXNz']) {
    const result = await authorize(event(header));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    out.push(result.context!);
  }
  return out;
}

describe('VTL templates and the local server give the same bodies', () => {
  it.each(AREAS)('%s: every answer, every deny context, a plain gateway message and one with quotes (JSON-quoted)', async (area, keyClass) => {
    const answers = gatewayAnswers(keyClass);
    const contexts = keyClass ? await denyContexts(keyClass, area) : [{ errorCode: 'unauthorized', errorMessage: 'Invalid API key' }];
    let compared = 0;
    for (const type of ALL_TYPES) {
      const answer: GatewayAnswer = answers[type];
      const template = gatewayTemplate(area, answer);
      for (const authorizer of contexts) {
        for (const gatewayMessage of ['Invalid request body', 'Unsupported "Content-Type" \\ text/plain']) {
          const vars = { errorCode: String(authorizer.errorCode), errorMessage: String(authorizer.errorMessage), gatewayMessage };
          const rendered = renderVtl(template, vars);
          expect(rendered, `${area} ${type}`).not.toContain('$context');
          expect(JSON.parse(rendered), `${area} ${type}`).toEqual(renderGatewayAnswer(area, answer, { authorizer, gatewayMessage }).body);
          compared++;
        }
      }
    }
    expect(compared).toBe(ALL_TYPES.length * contexts.length * 2);
  });

  it.each(AREAS)('%s: literal messages are literal VTL (no $ or #), and only ACCESS_DENIED reads the authorizer', (area, keyClass) => {
    const answers = gatewayAnswers(keyClass);
    for (const type of ALL_TYPES) {
      const template = gatewayTemplate(area, answers[type]);
      const rest = template
        .replaceAll('$context.authorizer.errorCode', '')
        .replaceAll('$context.authorizer.errorMessage', '')
        .replaceAll('$context.error.messageString', '');
      expect(rest, `${area} ${type}`).not.toMatch(/[$#]/);
      expect(template.includes('$context.authorizer.'), `${area} ${type}`).toBe(type === 'ACCESS_DENIED');
      expect(template.includes('$context.error.messageString'), `${area} ${type}`).toBe(type === 'DEFAULT_4XX');
    }
  });
});

describe('the shape of each area', () => {
  const denied = { errorCode: 'unauthorized', errorMessage: 'Invalid API key' };

  it('chat: every answer is { error: string }', () => {
    const answers = gatewayAnswers('chatKey');
    for (const type of ALL_TYPES) {
      const body = renderGatewayAnswer('chat', answers[type], { authorizer: denied, gatewayMessage: 'Bad' }).body as { error: unknown };
      expect(Object.keys(body), type).toEqual(['error']);
      expect(typeof body.error, type).toBe('string');
    }
    expect(renderGatewayAnswer('chat', answers.ACCESS_DENIED, { authorizer: denied }).body).toEqual({ error: 'Invalid API key' });
    expect(renderGatewayAnswer('chat', answers.UNAUTHORIZED).body).toEqual({ error: 'Missing API key: send Authorization: Bearer <API_KEY>' });
    expect(renderGatewayAnswer('chat', answers.THROTTLED).body).toEqual({ error: 'Rate limit exceeded' });
  });

  it('export and release notes: every answer is { error: { code, message } }', () => {
    for (const [area, keyClass] of [
      ['export', 'orgKey'],
      ['releaseNotes', undefined],
    ] as const) {
      const answers = gatewayAnswers(keyClass);
      for (const type of ALL_TYPES) {
        const body = renderGatewayAnswer(area, answers[type], { authorizer: denied, gatewayMessage: 'Bad' }).body as { error: Record<string, unknown> };
        expect(Object.keys(body), `${area} ${type}`).toEqual(['error']);
        expect(Object.keys(body.error).sort(), `${area} ${type}`).toEqual(['code', 'message']);
      }
    }
    expect(renderGatewayAnswer('export', gatewayAnswers('orgKey').WAF_FILTERED)).toEqual({
      status: 403,
      body: { error: { code: 'forbidden', message: 'Request blocked' } },
      headers: {},
    });
    expect(renderGatewayAnswer('releaseNotes', gatewayAnswers(undefined).MISSING_AUTHENTICATION_TOKEN)).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No such route' } },
      headers: {},
    });
  });

  it('acp: a 429 is { error: string }, everything else { error: { code, message } }', () => {
    const answers = gatewayAnswers('acpKey');
    expect(renderGatewayAnswer('acp', answers.THROTTLED).body).toEqual({ error: 'Rate limit exceeded' });
    expect(renderGatewayAnswer('acp', answers.QUOTA_EXCEEDED).body).toEqual({ error: 'Rate limit exceeded' });
    expect(JSON.parse(gatewayTemplate('acp', answers.THROTTLED))).toEqual({ error: 'Rate limit exceeded' });
    expect(renderGatewayAnswer('acp', answers.UNAUTHORIZED).body).toEqual({
      error: { code: 'unauthorized', message: 'Missing API key: send Authorization: Bearer <ACP_API_KEY>' },
    });
    expect(renderGatewayAnswer('acp', answers.WAF_FILTERED).body).toEqual({ error: { code: 'forbidden', message: 'Request blocked' } });
  });

  it('an expired key keeps code expired on the ACP API and shows unauthorized on the export and chat APIs', async () => {
    const [acpExpired] = await denyContexts('acpKey', 'acp');
    const [exportExpired] = await denyContexts('orgKey', 'export');
    const [chatExpired] = await denyContexts('chatKey', 'chat');
    expect(acpExpired).toEqual({ errorCode: 'expired', errorMessage: 'API key has expired' });
    expect(exportExpired).toEqual({ errorCode: 'unauthorized', errorMessage: 'API key has expired' });
    expect(chatExpired).toEqual({ errorCode: 'unauthorized', errorMessage: 'API key has expired' });
    expect(renderGatewayAnswer('acp', gatewayAnswers('acpKey').ACCESS_DENIED, { authorizer: acpExpired })).toEqual({
      status: 401,
      body: { error: { code: 'expired', message: 'API key has expired' } },
      headers: {},
    });
    expect(renderGatewayAnswer('export', gatewayAnswers('orgKey').ACCESS_DENIED, { authorizer: exportExpired })).toEqual({
      status: 401,
      body: { error: { code: 'unauthorized', message: 'API key has expired' } },
      headers: {},
    });
    expect(renderGatewayAnswer('chat', gatewayAnswers('chatKey').ACCESS_DENIED, { authorizer: chatExpired }).body).toEqual({ error: 'API key has expired' });
  });
});
