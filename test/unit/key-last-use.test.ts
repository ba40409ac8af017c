import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it, vi } from 'vitest';
import { EXPORT_ROUTES } from '../../functions/export/export-routes';
import type { AdmissionRequest } from '../../functions/kernel/app/admission-ports';
import type { RateCounter } from '../../functions/kernel/app/kernel-ports';
import type { RouteDef } from '../../functions/kernel/route-vocabulary';
import { keyAdmission, type AdmissionDeps } from '../../functions/tenancy/app/admit-request';
import { LastUseRecorder } from '../../functions/tenancy/app/record-last-use';
import type { CredentialStore } from '../../functions/tenancy/app/tenancy-ports';
import { grantToContext } from '../../functions/tenancy/domain/key-grant';
import { TestClock } from '../support/clock';

/**
 * A key's last use through the kit's admission port: written at most once a minute per key by this
 * process, next to the rate-limit count, and never the request's failure. The credential store is a
 * stand-in that records the writes asked of it (the conditional write itself is tested on the
 * embedded DynamoDB in dynamo-credential-store.test.ts).
 */
const GET_ROUTE = EXPORT_ROUTES.orgAppsList;
const POST_ROUTE = EXPORT_ROUTES.orgExportCreate;

function request(keyId: string): AdmissionRequest {
  const grant = { keyClass: 'orgKey' as const, keyId, orgId: 'org-1', scopes: ['apps:read' as const, 'transcripts:read' as const] };
  return {
    authorization: 'Bearer svc_org_x',
    authorizer: grantToContext(grant),
    userArn: undefined,
    clientIp: '203.0.113.9',
    path: {},
    header: () => undefined,
  };
}

function world(touch: (id: string, atUs: number) => Promise<boolean>) {
  const clock = new TestClock('2026-11-02T10:00:00Z', false);
  const writes: { id: string; atUs: number }[] = [];
  const unused = () => Promise.reject(new Error('not used by admission'));
  const credentials: CredentialStore = {
    create: unused,
    findByHash: unused,
    getById: unused,
    revoke: unused,
    listByOrg: unused,
    beginRotation: unused,
    completeRotation: unused,
    touchLastUsed: (id, atUs) => {
      writes.push({ id, atUs });
      return touch(id, atUs);
    },
  };
  const rateCounter: RateCounter = { hit: async (_s, _w, nowMs) => ({ count: 1, windowStartMs: nowMs }) };
  const logger = new Logger({ logLevel: 'SILENT' });
  const warn = vi.spyOn(logger, 'warn');
  const deps: AdmissionDeps = {
    credentials,
    orgs: { create: unused, get: unused, update: unused, list: unused, completeListing: unused },
    apps: {} as AdmissionDeps['apps'],
    chatAdmission: { read: unused },
    clock,
    rateCounter,
    logger,
  };
  return { clock, writes, warn, deps, admission: keyAdmission(deps) };
}

async function admitted(admission: ReturnType<typeof world>['admission'], route: RouteDef = GET_ROUTE, keyId = 'key-1') {
  const { caller, counted } = await admission.admit(route, request(keyId));
  await counted;
  return caller;
}

describe('the last use of a key', () => {
  it('is written once for 100 requests within a minute, and again in the next minute', async () => {
    const w = world(async () => true);
    for (let i = 0; i < 100; i++) {
      await admitted(w.admission, i % 2 ? GET_ROUTE : POST_ROUTE);
      w.clock.advance(500);
    }
    expect(w.writes).toHaveLength(1);
    w.clock.advance(10_000);
    await admitted(w.admission);
    await admitted(w.admission);
    expect(w.writes).toHaveLength(2);
    expect(w.writes[1]!.atUs - w.writes[0]!.atUs).toBeGreaterThanOrEqual(60_000_000);
  });

  it('is counted per key', async () => {
    const w = world(async () => true);
    await admitted(w.admission, GET_ROUTE, 'key-a');
    await admitted(w.admission, GET_ROUTE, 'key-b');
    await admitted(w.admission, GET_ROUTE, 'key-a');
    expect(w.writes.map((x) => x.id)).toEqual(['key-a', 'key-b']);
  });

  it('never fails a request when the store fails (rejecting or throwing), and is logged', async () => {
    const rejecting = world(() => Promise.reject(new Error('throttled')));
    await expect(admitted(rejecting.admission)).resolves.toMatchObject({ grant: { keyId: 'key-1' } });
    await expect(admitted(rejecting.admission, POST_ROUTE, 'key-2')).resolves.toMatchObject({ grant: { keyId: 'key-2' } });
    await vi.waitFor(() => expect(rejecting.warn).toHaveBeenCalledTimes(2));
    const throwing = world(() => {
      throw new Error('broken client');
    });
    await expect(admitted(throwing.admission)).resolves.toMatchObject({ grant: { keyId: 'key-1' } });
    expect(throwing.warn).toHaveBeenCalledWith('the last use of a key was not recorded', { keyId: 'key-1', error: 'broken client' });
  });

  it('runs beside the count: a GET’s verdict waits for it (after the handler), another method’s does not', async () => {
    let finish: (written: boolean) => void = () => undefined;
    const w = world(() => new Promise<boolean>((resolve) => (finish = resolve)));
    const get = await w.admission.admit(GET_ROUTE, request('key-get'));
    let settled = false;
    void get.counted.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    finish(true);
    await get.counted;
    const post = await w.admission.admit(POST_ROUTE, request('key-post'));
    await post.counted;
    expect(w.writes.map((x) => x.id)).toEqual(['key-get', 'key-post']);
    finish(true);
  });

  it('is remembered for a bounded number of keys: a forgotten key is written again', async () => {
    const w = world(async () => true);
    const recorder = new LastUseRecorder(w.deps, 2);
    for (const id of ['a', 'b', 'a', 'c', 'a', 'b']) await recorder.touchLastUsed(id);
    expect(w.writes.map((x) => x.id)).toEqual(['a', 'b', 'c', 'a', 'b']);
  });
});
