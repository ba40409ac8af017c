/**
 * THE DEPLOYED HTTP ROUTES ANSWER AS THE LOCAL SERVER DOES: each route's deployment bundle (what
 * `cdk deploy` uploads), run in a child process with its function's environment from the synthesized
 * template and the local backends' endpoints, behind API Gateway's event, its key authorizer's own
 * bundle and its gateway responses (test/support/bundle-gateway.ts), gives the same status, headers and
 * body as the in-process local server for the same request, one route per area and auth kind at least.
 * A scheduled job's bundle runs on the event EventBridge Scheduler sends.
 *
 * Left out: what touches S3 (the admin job run, the file-cleanup job; chat file uploads are no Lambda
 * but the upload service, whose own bundle test stores a file in the S3 emulator). The chat turn here
 * references no file, so its bucket client stays unused.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { functionDescription } from '../../lib/constructs/app-function';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { StripePaymentProvider } from '../../functions/acp/adapters/stripe-payment-provider';
import { buildPeriod } from '../../functions/release-notes/domain/release-notes';
import type { Session } from '../../functions/conversations/domain/session';
import { hashSecret } from '../../functions/release-notes/domain/webhook-subscription';
import { ROUTES as ALL_ROUTES } from '../../functions/routes';
import type { RouteDef } from '../../functions/kernel/route-vocabulary';
import type { PlatformOptions } from '../../functions/local/local-platform';
import { platformFunctions, synthPlatform } from '../infra/platform-fixture';
import { acpHeaders } from '../support/acp-client';
import type { ClientRequest } from '../support/apigw-events';
import { BundleGateway, buildPlatformBundles, routeFunction, type BundleAnswer } from '../support/bundle-gateway';
import { createChatKey } from '../support/chat';
import { localResources, type LambdaBundle } from '../support/lambda-bundle';
import { startTestPlatform, type Fixture, type TestPlatform } from '../support/platform';

const ROUTES = [
  'orgAppsList',
  'orgSessionsList',
  'orgSessionMessages',
  'chatCompletionsCreate',
  'responsesCreate',
  'modelGet',
  'conversationsCreate',
  'conversationGet',
  'acpProductsList',
  'acpDiscovery',
  'acpCheckoutCreate',
  'releaseNotesFeed',
  'releaseNotesSubscriptionsList',
  'adminOrgGet',
];
const AUTHORIZERS = ['tenancy/authorizers/org-key-authorizer', 'tenancy/authorizers/chat-key-authorizer', 'tenancy/authorizers/acp-key-authorizer'];
const JOB = 'conversations/workers/empty-session-cleanup';

interface World extends Fixture {
  readonly chatKey: string;
  readonly acpKey: string;
  readonly productId: string;
  readonly subscriptionId: string;
  readonly subscriptionSecret: string;
  readonly periodId: string;
}

interface Case {
  readonly name: string;
  readonly route: string;
  readonly request: (w: World) => { readonly target: string; readonly token?: string; readonly body?: unknown };
}

const CASES: readonly Case[] = [
  { name: 'org apps list', route: 'orgAppsList', request: (w) => ({ target: '/api/v1/org/apps', token: w.orgKey }) },
  {
    name: 'org apps list with a denied key',
    route: 'orgAppsList',
    request: (w) => ({ target: '/api/v1/org/apps', token: `${w.orgKey.slice(0, -1)}${w.orgKey.endsWith('A') ? 'B' : 'A'}` }),
  },
  { name: 'org apps list without a key', route: 'orgAppsList', request: () => ({ target: '/api/v1/org/apps' }) },
  {
    name: 'org sessions list, malformed updated_after',
    route: 'orgSessionsList',
    request: (w) => ({ target: '/api/v1/org/sessions?updated_after=yesterday', token: w.orgKey }),
  },
  {
    name: 'org sessions list, unknown parameter constructor',
    route: 'orgSessionsList',
    request: (w) => ({ target: '/api/v1/org/sessions?constructor=x', token: w.orgKey }),
  },
  {
    name: 'org sessions list, unknown parameter __proto__',
    route: 'orgSessionsList',
    request: (w) => ({ target: `/api/v1/org/sessions?__proto__=x&app_id=${w.appId}`, token: w.orgKey }),
  },
  {
    name: 'org session messages of an unknown session',
    route: 'orgSessionMessages',
    request: (w) => ({ target: `/api/v1/org/sessions/${randomUUID()}/messages`, token: w.orgKey }),
  },
  {
    name: 'chat completion, one turn',
    route: 'chatCompletionsCreate',
    request: (w) => ({
      target: '/api/v1/chat/completions',
      token: w.chatKey,
      body: { model: w.appNameId, messages: [{ role: 'user', content: 'hello bundle' }] },
    }),
  },
  {
    name: 'chat completion without messages',
    route: 'chatCompletionsCreate',
    request: (w) => ({ target: '/api/v1/chat/completions', token: w.chatKey, body: { model: w.appNameId } }),
  },
  {
    name: 'response with a function tool and a structured answer check',
    route: 'responsesCreate',
    request: (w) => ({
      target: '/api/v1/responses',
      token: w.chatKey,
      body: {
        model: w.appNameId,
        input: 'use get_weather {"city":"Lima"}',
        tools: [
          { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'] } },
        ],
      },
    }),
  },
  {
    name: 'response with a schema that is no schema',
    route: 'responsesCreate',
    request: (w) => ({
      target: '/api/v1/responses',
      token: w.chatKey,
      body: { model: w.appNameId, input: 'hi', text: { format: { type: 'json_schema', name: 'x', schema: { type: 'banana' } } } },
    }),
  },
  { name: "model get, the key's app", route: 'modelGet', request: (w) => ({ target: `/api/v1/models/${w.appNameId}`, token: w.chatKey }) },
  { name: 'model get, another name', route: 'modelGet', request: (w) => ({ target: '/api/v1/models/no-such-app-1', token: w.chatKey }) },
  {
    name: 'conversation create with an item and metadata',
    route: 'conversationsCreate',
    request: (w) => ({ target: '/api/v1/conversations', token: w.chatKey, body: { items: [{ role: 'user', content: 'hello bundle' }], metadata: { k: 'v' } } }),
  },
  {
    name: 'conversation create with an item_reference',
    route: 'conversationsCreate',
    request: (w) => ({ target: '/api/v1/conversations', token: w.chatKey, body: { items: [{ type: 'item_reference', id: 'msg_x' }] } }),
  },
  {
    name: 'conversation get, no such id',
    route: 'conversationGet',
    request: (w) => ({ target: `/api/v1/conversations/conv_${'0'.repeat(32)}`, token: w.chatKey }),
  },
  { name: 'acp products list', route: 'acpProductsList', request: (w) => ({ target: `/acp/${w.appId}/products` }) },
  { name: 'acp discovery', route: 'acpDiscovery', request: (w) => ({ target: `/acp/${w.appId}/.well-known/acp.json` }) },
  {
    name: 'acp checkout create',
    route: 'acpCheckoutCreate',
    request: (w) => ({ target: `/acp/${w.appId}/checkout_sessions`, token: w.acpKey, body: { line_items: [{ product_id: w.productId, quantity: 1 }] } }),
  },
  {
    name: 'acp checkout create with an unknown field',
    route: 'acpCheckoutCreate',
    request: (w) => ({
      target: `/acp/${w.appId}/checkout_sessions`,
      token: w.acpKey,
      body: { line_items: [{ product_id: w.productId, quantity: 1 }], gift_wrap: true },
    }),
  },
  { name: 'release notes feed', route: 'releaseNotesFeed', request: () => ({ target: '/api/v1/release-notes/feed?area=chat' }) },
  {
    name: 'release notes subscriptions of a secret',
    route: 'releaseNotesSubscriptionsList',
    request: (w) => ({ target: '/api/v1/release-notes/subscriptions', token: w.subscriptionSecret }),
  },
  { name: 'admin org get', route: 'adminOrgGet', request: (w) => ({ target: `/admin/v1/orgs/${w.orgId}` }) },
];

const routeById = (id: string): RouteDef => ALL_ROUTES.find((r) => r.id === id)!;

const STAGE = { region: 'eu-west-1', accountId: '123456789012', apiId: 'a1b2c3d4e5', stage: 'prod' } as const;

let p: TestPlatform;
let w: World;
let gateway: BundleGateway;
let viewerHost: string;
let bundles: Map<string, LambdaBundle> | undefined;

beforeAll(async () => {
  const built = buildPlatformBundles([...ROUTES.map((id) => routeFunction(routeById(id))), ...AUTHORIZERS, JOB]);
  built.catch(() => undefined);
  const template = synthPlatform('prod').apiTemplate;
  p = await startTestPlatform(deployedSettings(template));
  viewerHost = new URL(p.baseUrl).host;
  bundles = await built;
  gateway = new BundleGateway({ template, local: await localResources(p), bundles, stage: STAGE, clientIp: '203.0.113.7', viewerHost });
  w = await world(p);
}, 60_000);

afterAll(async () => {
  for (const b of bundles?.values() ?? []) b.remove();
  await p?.stop();
});

/**
 * The local platform configured as the deployment is, so that what differs is the code path and not
 * the settings: the stage's function settings from the template, and the payment handler every
 * function on AWS offers (Stripe; without `payments:charge` it cannot charge, and nothing here does).
 */
function deployedSettings(template: Template): Partial<PlatformOptions> {
  const fn = Object.values(platformFunctions(template)).find(
    (f) => f.Properties?.Description === functionDescription(routeFunction(routeById('orgSessionsList'))),
  );
  const vars = fn!.Properties!.Environment.Variables as Record<string, string>;
  return {
    visibilityDelayMs: Number(vars.VISIBILITY_DELAY_MS),
    anonRetentionDays: Number(vars.ANON_RETENTION_DAYS),
    emptySessionMaxAgeHours: Number(vars.EMPTY_SESSION_MAX_AGE_HOURS),
    appDeletionBatchSize: Number(vars.APP_DELETION_BATCH_SIZE),
    payments: new StripePaymentProvider({ apiKey: () => Promise.reject(new Error('no charge in this test')) }),
  };
}

async function world(p: TestPlatform): Promise<World> {
  const f = await p.fixture();
  const chatKey = (await createChatKey(p, f.appId)).key;
  const acpKey = (await p.admin('POST', `/apps/${f.appId}/acp-keys`, {})).body.data.key as string;
  const productId = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'E-book', price: 999, currency: 'usd' })).body.data.id as string;
  const subscriptionSecret = `whsec_${randomBytes(20).toString('hex')}`;
  const now = p.deps.clock.nowUs();
  const subscriptionId = randomUUID();
  await p.deps.subscriptions.create({
    id: subscriptionId,
    callbackUrl: 'https://hooks.example.com/platform',
    areas: ['chat'],
    categories: [],
    isActive: true,
    secretHash: hashSecret(subscriptionSecret),
    secretLast4: subscriptionSecret.slice(-4),
    sealedSecret: 'never-opened',
    createdAtUs: now,
    updatedAtUs: now,
  });
  const day = 86_400_000_000;
  const items = [{ title: 'Chat sessions resume', body: 'A chat turn may name its session.', kind: 'feature' as const }];
  const period = buildPeriod({ periodStartUs: now - 2 * day, periodEndUs: now - day, markdown: '', items }, now);
  await p.deps.releaseNotes.put(period);
  return { ...f, chatKey, acpKey, productId, subscriptionId, subscriptionSecret, periodId: period.id };
}

function clientRequest(c: Case, i: number): ClientRequest {
  const { target, token, body } = c.request(w);
  const route = routeById(c.route);
  return {
    method: route.method,
    target,
    headers: {
      Accept: 'application/json',
      'User-Agent': 'bundle-parity-test/1.0',
      'X-Correlation-ID': `parity-${i}`,
      ...(route.auth === 'iam' ? { Authorization: `Bearer ${p.adminToken}` } : token !== undefined ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      // ACP's required headers, a fresh Idempotency-Key per request: each run is a request of its own.
      ...(route.auth === 'acpKey' ? acpHeaders(route.method) : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  };
}

/** Headers of the transport, not of the answer: Node's HTTP server adds them. */
const TRANSPORT = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']);

/**
 * An answer with what legitimately differs between two runs of the same request replaced, and nothing
 * else: the `{base_url}` (the local server's own http address; https and the viewer's host behind the
 * front door), ISO timestamps and the `created`, `created_at` and `completed_at` seconds, and ids minted per request
 * (UUIDs other than the fixture's, `chatcmpl-…`, `li_…`), each numbered by first appearance so an id
 * repeated within an answer (the chat session in header and body) must still repeat. Headers are
 * compared by lower-case name; the body as JSON when it is JSON, else as text.
 */
function normalized(a: BundleAnswer): unknown {
  let body: unknown = a.body;
  try {
    body = a.body ? JSON.parse(a.body) : a.body;
  } catch {
    // Not JSON (the RSS feed): compared as text.
  }
  const headers = Object.fromEntries(
    Object.entries(a.headers)
      .map(([k, v]) => [k.toLowerCase(), v] as const)
      .filter(([k]) => !TRANSPORT.has(k))
      .sort(([x], [y]) => x.localeCompare(y)),
  );
  const known = new Set([w.orgId, w.appId, w.orgKeyId, w.productId, w.subscriptionId, w.periodId]);
  const minted = new Map<string, string>();
  const mint = (id: string): string => {
    if (known.has(id)) return id;
    if (!minted.has(id)) minted.set(id, `<id ${minted.size + 1}>`);
    return minted.get(id)!;
  };
  const text = JSON.stringify({ status: a.status, headers, body })
    .replaceAll(p.baseUrl, '{base_url}')
    .replaceAll(`https://${viewerHost}`, '{base_url}')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/"(created(?:_at)?|completed_at)":\d+/g, '"$1":"<second>"')
    // A Responses id and its items name the session and the answer: 64 hex digits after the prefix.
    .replace(/\b(resp|msg|fc)_[0-9a-f]{64}/g, (_, kind: string) => `${kind}_<answer>`)
    // A conversation id names the session: 32 hex digits after the prefix.
    .replace(/\bconv_[0-9a-f]{32}\b/g, 'conv_<session>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\bchatcmpl-[0-9a-f]{32}\b|\bli_[A-Za-z0-9]{16}\b/g, mint);
  return JSON.parse(text);
}

describe('HTTP route bundles behind API Gateway answer as the local server does', () => {
  it.each(CASES.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    const request = clientRequest(c, i);
    const res = await p.call(request.method, request.target, {
      headers: { ...request.headers },
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    const headers: Record<string, string> = Object.fromEntries(res.headers);
    const deployed = await gateway.send(routeById(c.route), clientRequest(c, i));
    if (deployed.gateway) {
      // API Gateway's own answers say `application/json` (lib/constructs/area-api.ts), the local server's
      // `application/json; charset=utf-8`: the same UTF-8 JSON, so only the media type is compared for them.
      expect(deployed.headers['content-type']).toBe('application/json');
      expect(headers['content-type']).toBe('application/json; charset=utf-8');
      headers['content-type'] = 'application/json';
    }
    expect(normalized(deployed), deployed.failure).toEqual(normalized({ status: res.status, headers, body: res.text }));
  });

  it('ran every route in its own bundle, each a few times at most', () => {
    for (const id of ROUTES) expect(gateway.invocations.get(routeFunction(routeById(id))), id).toBeGreaterThan(0);
    for (const [fn, n] of gateway.invocations) expect(n, fn).toBeLessThanOrEqual(3);
  });
});

describe('a scheduled job bundle on the event EventBridge Scheduler sends', () => {
  it('empty-session-cleanup removes an old session that never had a message, and says so', async () => {
    const hour = 3_600_000_000;
    const old = p.deps.clock.nowUs() - (Number(gateway.envOf(JOB).EMPTY_SESSION_MAX_AGE_HOURS) + 1) * hour;
    const session: Session = {
      id: randomUUID(),
      orgId: w.orgId,
      appId: w.appId,
      consumerId: null,
      consumerEmail: null,
      title: 'abandoned',
      source: 'web',
      externalId: null,
      queryParams: [],
      startedAtUs: old,
      lastMessageAtUs: null,
      touchedAtUs: old,
    };
    await p.deps.sessions.create(session);
    // The schedule sets no Input (lib/constructs/workers.ts), and the job reads nothing of its event.
    const { result, logs } = await gateway.invoke<Record<string, number>>(JOB, {});
    expect(result).toEqual({ removed: 1 });
    expect(logs.filter((l) => l.message === 'job finished')).toEqual([expect.objectContaining({ job: 'empty-session-cleanup', removed: 1 })]);
    expect(await p.deps.sessions.get(session.id)).toBeUndefined();
  });
});
