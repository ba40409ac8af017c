import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER_IP_HEADER } from '../../functions/kernel/http/api-gateway-contract';
import { createHandler } from '../../functions/release-notes/http/release-notes-feed.handler';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform } from '../support/platform';

/**
 * Whose window a per-IP request counts in. Behind the front door (TRUST_VIEWER_ADDRESS) it is the
 * viewer address CloudFront's function writes into X-Viewer-Ip; anywhere else that header is the
 * client's own word and the connection's peer counts.
 */
describe('the client address of per-IP limits', () => {
  let p: TestPlatform;
  const clock = new TestClock('2026-11-02T10:00:10Z');
  beforeAll(async () => {
    p = await startTestPlatform({ clock });
  });
  afterAll(() => p.stop());

  const event = (sourceIp: string, viewerIp: string): APIGatewayProxyEvent =>
    ({
      httpMethod: 'GET',
      path: '/api/v1/release-notes/feed',
      resource: '/api/v1/release-notes/feed',
      headers: { [VIEWER_IP_HEADER]: viewerIp },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { identity: { sourceIp }, path: '/api/v1/release-notes/feed' },
    }) as unknown as APIGatewayProxyEvent;
  const context = {} as Context;

  it('counts per viewer behind the front door, and per peer elsewhere', async () => {
    const front = createHandler({ ...p.deps, settings: { ...p.deps.settings, trustViewerAddress: true } });
    const direct = createHandler(p.deps);
    // 60 requests a minute per address (docs/adr/0011): one CloudFront edge, two viewers.
    for (let i = 0; i < 60; i++) expect((await front(event('198.51.100.1', '203.0.113.7'), context)).statusCode).toBe(200);
    expect((await front(event('198.51.100.1', '203.0.113.7'), context)).statusCode).toBe(429);
    expect((await front(event('198.51.100.1', '203.0.113.8'), context)).statusCode).toBe(200);
    // Without the front door the header is ignored: every request counts against the peer.
    for (let i = 0; i < 60; i++) expect((await direct(event('192.0.2.9', `203.0.113.${i}`), context)).statusCode).toBe(200);
    expect((await direct(event('192.0.2.9', '203.0.113.200'), context)).statusCode).toBe(429);
  });
});
