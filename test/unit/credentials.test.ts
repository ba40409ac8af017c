import { describe, expect, it } from 'vitest';
import { bearerToken, credentialState, hashCredential, type StoredCredential } from '../../functions/tenancy/domain/credentials';

describe('bearerToken', () => {
  it('returns the token of a Bearer header', () => {
    expect(bearerToken('Bearer svc_org_abc')).toBe('svc_org_abc');
    expect(bearerToken('Bearer    svc_org_abc')).toBe('svc_org_abc');
    expect(bearerToken('Bearer svc_org_abc  ')).toBe('svc_org_abc');
  });

  it('treats the scheme name case-insensitively (RFC 7235)', () => {
    expect(bearerToken('bearer tok')).toBe('tok');
    expect(bearerToken('BEARER tok')).toBe('tok');
  });

  it.each([
    [undefined],
    [''],
    ['Bearer'],
    ['Bearer '],
    ['Bearer\ttok'],
    ['Basic dXNlcjpwYXNz'],
    ['Token tok'],
    ['tok'],
    ['Bearertok'],
    ['Bearer tok extra'],
    [' Bearer tok'],
    ['Bearer: tok'],
  ])('has no token for %j', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});

describe('credentialState', () => {
  const now = 1_800_000_000_000_000;
  const base: StoredCredential = {
    id: 'k1',
    kind: 'org',
    hash: hashCredential('svc_org_x'),
    orgId: 'o1',
    scopes: ['apps:read'],
    displayPrefix: 'svc_org_x',
    createdAtUs: now - 10_000_000,
  };

  it('is active without expiry or revocation, or before expiry', () => {
    expect(credentialState(base, now)).toBe('active');
    expect(credentialState({ ...base, expiresAtUs: now + 1 }, now)).toBe('active');
  });

  it('is expired from the expiry instant on', () => {
    expect(credentialState({ ...base, expiresAtUs: now }, now)).toBe('expired');
    expect(credentialState({ ...base, expiresAtUs: now - 1 }, now)).toBe('expired');
  });

  it('is revoked once revoked, whatever the expiry and even for a revocation time in the future', () => {
    expect(credentialState({ ...base, revokedAtUs: now - 1 }, now)).toBe('revoked');
    expect(credentialState({ ...base, revokedAtUs: now + 1_000_000 }, now)).toBe('revoked');
    expect(credentialState({ ...base, revokedAtUs: now - 1, expiresAtUs: now - 5 }, now)).toBe('revoked');
  });
});

describe('hashCredential', () => {
  it('is the hex SHA-256 of the raw key', () => {
    // Known answer: sha256("abc").
    expect(hashCredential('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashCredential('svc_org_a')).not.toBe(hashCredential('svc_org_b'));
  });
});
