import { sign, verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { buildPeriod } from '../../functions/release-notes/domain/release-notes';
import { parseIsoToMicros } from '../../functions/kernel/domain/time';
import {
  deliveryBody,
  deliveryHeaders,
  outcomeOf,
  retryDelaySeconds,
  standardWebhookId,
  svcSignature,
  verifySvcSignature,
} from '../../functions/release-notes/domain/webhook-delivery';
import type { AttemptResult } from '../../functions/kernel/domain/outbound-webhook';
import { isWellFormedSecret, maskSecret, normalizeAreas } from '../../functions/release-notes/domain/webhook-subscription';

const SECRET = 'whsec_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCd';
const us = (iso: string) => parseIsoToMicros(iso)!;
const period = buildPeriod(
  {
    periodStartUs: us('2026-11-01T00:00:00Z'),
    periodEndUs: us('2026-11-15T00:00:00Z'),
    markdown: '## Fixes\n\n- **Cursor**: ties — “quoted” ünïcödé\n',
    items: [
      { title: 'Cursor', body: 'ties', kind: 'fix' },
      { title: 'Cursor', body: 'twice', kind: 'fix' },
      { title: 'Chat', body: '', kind: 'feature' },
    ],
  },
  1,
);
const at = us('2026-11-22T10:00:00.123Z');

describe('the delivery body', () => {
  it('holds exactly the spec fields, in order', () => {
    const body = JSON.parse(Buffer.from(deliveryBody(period, at)).toString('utf8'));
    expect(body).toEqual({
      event: 'release_notes.period_published',
      periodStart: '2026-11-01T00:00:00.000Z',
      periodEnd: '2026-11-15T00:00:00.000Z',
      markdown: period.markdown,
      categories: ['feature', 'fix'],
      areas: ['Cursor', 'Chat'],
      timestamp: '2026-11-22T10:00:00.123Z',
    });
    expect(Object.keys(body)).toEqual(['event', 'periodStart', 'periodEnd', 'markdown', 'categories', 'areas', 'timestamp']);
  });
});

describe('X-Svc-Signature', () => {
  const body = deliveryBody(period, at);

  it('is sha256=<hex> over the body bytes, as GitHub signs (verified by @octokit/webhooks-methods)', async () => {
    const header = svcSignature(SECRET, body);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(header).toBe(await sign(SECRET, Buffer.from(body).toString('utf8')));
    expect(await verify(SECRET, Buffer.from(body).toString('utf8'), header)).toBe(true);
  });

  it('is checked strictly: exact format, 32 bytes, constant-time comparison', () => {
    const header = svcSignature(SECRET, body);
    expect(verifySvcSignature(SECRET, body, header)).toBe(true);
    expect(verifySvcSignature(SECRET, Buffer.concat([Buffer.from(body), Buffer.from(' ')]), header)).toBe(false);
    expect(verifySvcSignature(`${SECRET}x`, body, header)).toBe(false);
    for (const bad of [
      undefined,
      '',
      header.toUpperCase(),
      header.slice(7),
      `${header}0`,
      header.slice(0, -1),
      `${header.slice(0, -2)}zz`,
      `sha1=${header.slice(7)}`,
      ` ${header}`,
    ]) {
      expect(verifySvcSignature(SECRET, body, bad), String(bad)).toBe(false);
    }
  });
});

describe('Standard Webhooks headers', () => {
  it('sign id.timestamp.body with the base64 key after whsec_, as the standardwebhooks library verifies', () => {
    const body = deliveryBody(period, Date.now() * 1000);
    const id = standardWebhookId('sub-1', period.id, period.revision);
    const headers = deliveryHeaders(SECRET, id, Date.now() * 1000, body);
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = new Webhook(SECRET).verify(Buffer.from(body).toString('utf8'), headers);
    expect(payload).toEqual(JSON.parse(Buffer.from(body).toString('utf8')));
    expect(() => new Webhook(SECRET.replace('A', 'B')).verify(Buffer.from(body).toString('utf8'), headers)).toThrow();
  });

  it('keeps one webhook-id per subscription, period and revision (the same for every attempt)', () => {
    const id = standardWebhookId('sub-1', period.id, period.revision);
    expect(standardWebhookId('sub-1', period.id, period.revision)).toBe(id);
    expect(standardWebhookId('sub-2', period.id, period.revision)).not.toBe(id);
    expect(standardWebhookId('sub-1', period.id, 'other')).not.toBe(id);
  });
});

describe('the retry rule', () => {
  const cases: [AttemptResult, string, string, string][] = [
    [{ status: 200 }, 'delivered', 'delivered', 'delivered'],
    [{ status: 204 }, 'delivered', 'delivered', 'delivered'],
    [{ status: 301 }, 'dropped', 'dropped', 'dropped'],
    [{ status: 302 }, 'dropped', 'dropped', 'dropped'],
    [{ status: 400 }, 'dropped', 'dropped', 'dropped'],
    [{ status: 401 }, 'dropped', 'dropped', 'dropped'],
    [{ status: 404 }, 'dropped', 'dropped', 'dropped'],
    [{ status: 410 }, 'dropped', 'dropped', 'dropped'],
    [{ status: 408 }, 'retry', 'retry', 'dropped'],
    [{ status: 429 }, 'retry', 'retry', 'dropped'],
    [{ status: 500 }, 'retry', 'retry', 'dropped'],
    [{ status: 503 }, 'retry', 'retry', 'dropped'],
    [{ status: 599 }, 'retry', 'retry', 'dropped'],
    [{ error: 'timeout' }, 'retry', 'retry', 'dropped'],
    [{ error: 'network' }, 'retry', 'retry', 'dropped'],
    [{ error: 'tls' }, 'retry', 'retry', 'dropped'],
    [{ error: 'dns' }, 'retry', 'retry', 'dropped'],
    [{ error: 'refused_address' }, 'dropped', 'dropped', 'dropped'],
    [{ error: 'invalid_url' }, 'dropped', 'dropped', 'dropped'],
  ];
  it.each(cases)('%j: attempt 1 %s, attempt 2 %s, attempt 3 %s', (result, a1, a2, a3) => {
    expect([outcomeOf(result, 1), outcomeOf(result, 2), outcomeOf(result, 3)]).toEqual([a1, a2, a3]);
  });

  it('waits about 1 s before attempt 2 and about 3 s before attempt 3', () => {
    expect(retryDelaySeconds(1)).toBe(1);
    expect(retryDelaySeconds(2)).toBe(3);
  });
});

describe('secrets and subscriptions', () => {
  it('masks all but the last four characters, whatever the length', () => {
    expect(maskSecret('AbCd')).toBe('whsec_********AbCd');
  });

  it('recognises the secret format', () => {
    expect(isWellFormedSecret(SECRET)).toBe(true);
    for (const bad of ['', 'whsec_', `${SECRET}x`, SECRET.slice(0, -1), SECRET.replace('whsec_', 'whsek_'), `${SECRET.slice(0, -1)}!`])
      expect(isWellFormedSecret(bad)).toBe(false);
  });

  it('normalizes areas: trimmed, empty dropped, case-insensitive duplicates removed', () => {
    expect(normalizeAreas([' Chat ', '', 'chat', 'Export', '  '])).toEqual(['Chat', 'Export']);
  });
});
