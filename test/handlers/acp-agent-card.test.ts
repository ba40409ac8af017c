/**
 * The A2A 1.0 Agent Card of an app over HTTP against the local platform: read by the official A2A
 * JavaScript SDK (its card resolver and its 1.0 model, typed by tsc), checked against the field rules
 * of A2A's specification/a2a.proto, and cached the way A2A 1.0 §8.6 and RFC 9110 ask: Cache-Control,
 * a strong ETag that is a hash of the body, and 304 with no body for a matching If-None-Match.
 */
import { createHash, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { AgentCard } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpBaseUrl } from '../../functions/acp/domain/discovery';
import { startTestPlatform, type Fixture, type TestPlatform } from '../support/platform';

/**
 * The REQUIRED fields of AgentCard and the messages it holds, from specification/a2a.proto of
 * github.com/a2aproject/A2A at tag v1.0.1 (`[(google.api.field_behavior) = REQUIRED]`), with the rule of
 * the specification's §5.7: "Arrays marked as required MUST contain at least one element". Names are
 * the JSON (camelCase) ones of §5.5.
 */
const requiredArray = (items: object) => ({ type: 'array', minItems: 1, items });
const A2A_1_0_AGENT_CARD_REQUIRED = {
  type: 'object',
  required: ['name', 'description', 'supportedInterfaces', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'],
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    supportedInterfaces: requiredArray({
      type: 'object',
      required: ['url', 'protocolBinding', 'protocolVersion'],
      properties: { url: { type: 'string' }, protocolBinding: { type: 'string' }, protocolVersion: { type: 'string' } },
    }),
    version: { type: 'string' },
    capabilities: { type: 'object' },
    securitySchemes: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        minProperties: 1,
        maxProperties: 1,
        properties: { httpAuthSecurityScheme: { type: 'object', required: ['scheme'], properties: { scheme: { type: 'string' } } } },
      },
    },
    securityRequirements: { type: 'array', items: { type: 'object', properties: { schemes: { type: 'object' } } } },
    defaultInputModes: requiredArray({ type: 'string' }),
    defaultOutputModes: requiredArray({ type: 'string' }),
    skills: requiredArray({
      type: 'object',
      required: ['id', 'name', 'description', 'tags'],
      properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, tags: requiredArray({ type: 'string' }) },
    }),
  },
};
const checkRequired = new Ajv2020({ strict: false, allErrors: true }).compile(A2A_1_0_AGENT_CARD_REQUIRED);

/** The card as the SDK's 1.0 model reads it and writes it back: a field it does not know, or of another shape, is lost. */
const throughSdk = (raw: unknown) => AgentCard.toJSON(AgentCard.fromJSON(raw));

describe('the A2A 1.0 Agent Card', () => {
  let p: TestPlatform;
  let f: Fixture;
  const cardPath = (name = 'agent-card.json', appId = f.appId) => `/acp/${appId}/.well-known/${name}`;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(p.baseUrl + path, { headers });

  beforeAll(async () => {
    p = await startTestPlatform();
    f = await p.fixture();
    expect((await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Mug', price: 1800, currency: 'usd' })).status).toBe(201);
  });
  afterAll(() => p.stop());

  it('is read by the official A2A SDK into its 1.0 model, every served field known to it', async () => {
    const url = acpBaseUrl(p.baseUrl, f.appId);
    const skill = (id: string, name: string) => ({
      id,
      name,
      description: expect.stringContaining(url),
      tags: ['commerce', 'checkout', 'acp'],
      examples: [expect.any(String)],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    });
    // Typed by the SDK's AgentCard: tsc checks every field name and shape against A2A 1.0.
    const expected: AgentCard = {
      name: 'Test App',
      description: expect.stringContaining('No A2A protocol binding is served'),
      supportedInterfaces: [],
      provider: undefined,
      version: '1.0.0',
      capabilities: {
        streaming: false,
        pushNotifications: false,
        extensions: [
          {
            uri: 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol',
            description: expect.any(String),
            required: true,
            params: { acp_version: '2026-04-17', api_base_url: url, transports: ['rest'], services: ['checkout'], supported_currencies: ['usd'] },
          },
        ],
        extendedAgentCard: undefined,
      },
      securitySchemes: {
        acpKey: {
          scheme: { $case: 'httpAuthSecurityScheme', value: { description: expect.any(String), scheme: 'Bearer', bearerFormat: 'acp_<32 characters>' } },
        },
      },
      securityRequirements: [{ schemes: { acpKey: { list: [] } } }],
      defaultInputModes: ['application/json'],
      defaultOutputModes: ['application/json'],
      skills: [
        skill('list_products', 'List products'),
        skill('create_checkout_session', 'Create a checkout session'),
        skill('get_checkout_session', 'Read a checkout session'),
        skill('update_checkout_session', 'Update a checkout session'),
        skill('complete_checkout_session', 'Complete a checkout session'),
        skill('cancel_checkout_session', 'Cancel a checkout session'),
      ],
      signatures: [],
    };
    // The SDK's resolver fetches {base}/.well-known/agent-card.json with A2A-Version: 1.0 and parses it.
    const resolver = new DefaultAgentCardResolver();
    expect(await resolver.resolve(`${url}/`)).toEqual(expected);
    expect(await resolver.resolve(`${url}/`, '.well-known/agent.json')).toEqual(expected);

    // The SDK writes back exactly what was served: no field outside its 1.0 model, none misnamed. The one
    // difference is `supportedInterfaces: []`, which ProtoJSON leaves out and A2A's canonical form keeps.
    const res = await p.call('GET', cardPath());
    const { supportedInterfaces, ...rest } = res.body;
    expect(supportedInterfaces).toEqual([]);
    expect(throughSdk(res.body)).toEqual(rest);
  });

  it('names no A2A interface: the SDK client finds no transport to call, rather than one that does not answer', async () => {
    await expect(new ClientFactory().createFromUrl(`${acpBaseUrl(p.baseUrl, f.appId)}/`)).rejects.toThrow(/No compatible transport/);
  });

  it('has every field A2A 1.0 requires; its only departure is the empty supportedInterfaces, and the checks can fail', async () => {
    const card = (await p.call('GET', cardPath())).body;
    checkRequired(card);
    expect(checkRequired.errors?.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual(['/supportedInterfaces minItems']);

    // An A2A 0.3 card, as this route used to serve: its fields are lost in the SDK's 1.0 model, and it lacks 1.0's required ones.
    const legacy = { ...card, url: 'https://x.example', protocolVersion: '0.3.0', preferredTransport: 'HTTP+JSON', supportedInterfaces: undefined };
    expect(throughSdk(legacy)).not.toHaveProperty('url');
    expect(throughSdk({ ...card, securitySchemes: { acpKey: { type: 'http', scheme: 'bearer' } } })).not.toEqual(throughSdk(card));
    expect(checkRequired(legacy)).toBe(false);
    expect(checkRequired({ ...card, skills: [{ id: 'x', name: 'x', description: 'x', tags: [] }] })).toBe(false);
  });

  it('carries Cache-Control and a strong ETag that is a hash of the body, the same at both paths', async () => {
    const [current, legacy] = await Promise.all([get(cardPath()), get(cardPath('agent.json'))]);
    const [text, legacyText] = await Promise.all([current.text(), legacy.text()]);
    expect(current.status).toBe(200);
    expect(current.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(current.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(current.headers.get('etag')).toBe(`"${createHash('sha256').update(text).digest('base64url')}"`);
    expect(legacyText).toBe(text);
    expect(legacy.headers.get('etag')).toBe(current.headers.get('etag'));
    expect(legacy.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it.each(['agent-card.json', 'agent.json'])('answers a matching If-None-Match at %s with 304: no body, the same ETag and Cache-Control', async (name) => {
    const etag = (await get(cardPath(name))).headers.get('etag')!;
    const opaque = etag.slice(1, -1);
    for (const ifNoneMatch of [etag, `W/${etag}`, '*', ` * `, `"other", ${etag}`, `"a,b" ,W/"c",${etag} , `, `,${etag}`]) {
      const res = await p.call('GET', cardPath(name), { headers: { 'If-None-Match': ifNoneMatch } });
      expect(res.status, ifNoneMatch).toBe(304);
      expect(res.text, ifNoneMatch).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(res.headers.get('content-type')).toBeNull();
    }
    // Not a match: other tags, another case, the tag unquoted or in a malformed list (ignored, as if absent).
    for (const ifNoneMatch of ['"other"', `W/"other", "x"`, `"${opaque.toUpperCase()}x"`, opaque, `w/${etag}`, `*, ${etag}`, `${etag} "x"`, `"${opaque}`]) {
      const res = await p.call('GET', cardPath(name), { headers: { 'If-None-Match': ifNoneMatch } });
      expect(res.status, ifNoneMatch).toBe(200);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.body.name).toBe('Test App');
    }
  });

  it('reads If-None-Match sent as several field lines as one list', async () => {
    const etag = (await get(cardPath())).headers.get('etag')!;
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(p.baseUrl + cardPath());
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers: { 'If-None-Match': ['"other"', etag] } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(304);
  });

  it('changes its ETag when the card changes: the old tag then gets the new card', async () => {
    const before = (await get(cardPath())).headers.get('etag')!;
    expect((await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Tee', price: 2500, currency: 'eur' })).status).toBe(201);
    const res = await p.call('GET', cardPath(), { headers: { 'If-None-Match': before } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(before);
    expect(res.body.capabilities.extensions[0].params.supported_currencies).toEqual(['eur', 'usd']);
  });

  it('answers 404 for an unknown or deleted app whatever the If-None-Match', async () => {
    const gone = await p.fixture();
    expect((await p.admin('DELETE', `/apps/${gone.appId}`)).status).toBe(202);
    for (const appId of [randomUUID(), gone.appId])
      for (const name of ['agent-card.json', 'agent.json']) {
        const res = await p.call('GET', cardPath(name, appId), { headers: { 'If-None-Match': '*' } });
        expect(res.status).toBe(404);
        expect(res.headers.get('etag')).toBeNull();
      }
  });
});
