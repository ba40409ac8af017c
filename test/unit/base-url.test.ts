import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../functions/kernel/env';
import { publicBaseUrl } from '../../functions/kernel/http/base-url';

const req = (headers: Record<string, string>, domainName?: string) => ({
  header: (name: string) => headers[name.toLowerCase()],
  event: { requestContext: domainName ? { domainName } : {} } as never,
});
const settings = (trustViewerAddress: boolean, configured?: string) => ({
  settings: { trustViewerAddress, ...(configured ? { publicBaseUrl: configured } : {}) } as never,
});
const HOSTILE_HOSTS = ['evil.example.com', 'evil.example/path', 'a b', 'x@evil.example', '', 'host:port:9', '127.0.0.1:3000'];

describe('publicBaseUrl', () => {
  it('a configured base URL wins over every header', () => {
    for (const host of HOSTILE_HOSTS) {
      expect(publicBaseUrl(settings(false, 'http://127.0.0.1:3000'), req({ host, 'x-viewer-host': host }))).toBe('http://127.0.0.1:3000');
      expect(publicBaseUrl(settings(true, 'https://api.example.com'), req({ host, 'x-viewer-host': host }))).toBe('https://api.example.com');
    }
  });
  it('behind the front door: https and the host the front door wrote, never the Host API Gateway saw', () => {
    expect(publicBaseUrl(settings(true), req({ 'x-viewer-host': 'api.example.com', host: 'abc.execute-api.eu-west-1.amazonaws.com' }))).toBe(
      'https://api.example.com',
    );
  });
  it('without configuration or a front door: the domain API Gateway reports, never the Host header', () => {
    for (const host of HOSTILE_HOSTS) {
      expect(publicBaseUrl(settings(false), req({ host }, 'abc.execute-api.eu-west-1.amazonaws.com'))).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
      expect(publicBaseUrl(settings(false), req({ host }))).toBe('https://localhost');
    }
  });
  it('refuses a viewer host that is not a host name or address (no URL injection)', () => {
    for (const host of ['evil.example/path', 'a b', 'x@evil.example', '', 'host:port:9']) {
      expect(publicBaseUrl(settings(true), req({ 'x-viewer-host': host }))).toBe('https://localhost');
    }
  });
});

describe('normalizeBaseUrl (the form PUBLIC_BASE_URL must have)', () => {
  it('takes an http(s) origin with an optional path prefix, without a trailing slash', () => {
    expect(normalizeBaseUrl('https://api.example.com')).toBe('https://api.example.com');
    expect(normalizeBaseUrl('https://api.example.com/')).toBe('https://api.example.com');
    expect(normalizeBaseUrl('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(normalizeBaseUrl('https://example.com/platform/')).toBe('https://example.com/platform');
  });
  it('refuses everything else', () => {
    for (const bad of [
      '',
      'example.com',
      'ftp://example.com',
      'https://u:p@example.com',
      'https://example.com/?q=1',
      'https://example.com/#x',
      'javascript:alert(1)',
    ]) {
      expect(normalizeBaseUrl(bad)).toBeUndefined();
    }
  });
});
