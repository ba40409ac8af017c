/**
 * `GET /admin/v1/openapi.json`: the admin API's OpenAPI document, to an admin caller only, covering every
 * admin route of the table with the shapes its path parameters declare.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES, buildAdminOpenApiDocument } from '../../functions/openapi/admin-document';
import { startTestPlatform, type TestPlatform } from '../support/platform';

describe('the admin OpenAPI document', () => {
  let p: TestPlatform;

  beforeAll(async () => {
    p = await startTestPlatform();
  });

  afterAll(async () => {
    await p?.stop();
  });

  it('is served to the admin token: every admin route, bearer admin token as its security', async () => {
    const res = await p.admin('GET', '/openapi.json');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(buildAdminOpenApiDocument())));
    const operations = Object.values(res.body.paths as Record<string, Record<string, { operationId: string; security: unknown }>>).flatMap((m) =>
      Object.values(m),
    );
    expect(operations.map((o) => o.operationId).sort()).toEqual(ADMIN_ROUTES.map((r) => r.id).sort());
    for (const o of operations) expect(o.security, o.operationId).toEqual([{ adminToken: [] }]);
    const deliver = res.body.paths['/admin/v1/apps/{appId}/orders/{orderId}/fulfillments/{fulfillmentId}/deliver'].post;
    expect(deliver.parameters.find((x: { name: string }) => x.name === 'fulfillmentId').schema.pattern).toMatch(/^\^ful_/);
  });

  it('is refused without the admin token, or with another credential', async () => {
    expect((await p.call('GET', '/admin/v1/openapi.json')).status).toBe(401);
    expect((await p.call('GET', '/admin/v1/openapi.json', { token: 'not-the-admin-token' })).status).toBe(401);
    const f = await p.fixture();
    expect((await p.call('GET', '/admin/v1/openapi.json', { token: f.orgKey })).status).toBe(401);
  });
});
