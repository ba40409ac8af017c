import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform';

describe('GET /api/v1/org/apps', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(() => p.stop());

  it('lists the org apps newest first with exactly the spec fields', async () => {
    const f = await p.fixture();
    const second = await p.admin('POST', `/orgs/${f.orgId}/apps`, { name: 'Second App' });
    const res = await p.call('GET', '/api/v1/org/apps', { token: f.orgKey });
    expect(res.status).toBe(200);
    expect(res.body.data.map((a: { id: string }) => a.id)).toEqual([second.body.data.id, f.appId]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['created_at', 'id', 'name', 'slug', 'updated_at']);
    expect(res.body.data[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.headers.get('x-correlation-id')).toBeTruthy();
  });
});
