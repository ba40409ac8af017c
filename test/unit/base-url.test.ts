import { describe, expect, it } from 'vitest';
import { publicBaseUrl } from '../../functions/http/base-url';

const req = (headers: Record<string, string>) => ({ header: (name: string) => headers[name.toLowerCase()] });
const settings = (trustViewerAddress: boolean) => ({ settings: { trustViewerAddress } as never });

describe('publicBaseUrl', () => {
  it('behind the front door: https and the host the front door wrote, never the Host API Gateway saw', () => {
    expect(publicBaseUrl(settings(true), req({ 'x-viewer-host': 'api.example.com', host: 'abc.execute-api.eu-west-1.amazonaws.com' }))).toBe('https://api.example.com');
  });
  it('locally: http and the Host header', () => {
    expect(publicBaseUrl(settings(false), req({ host: '127.0.0.1:3000', 'x-viewer-host': 'ignored.example' }))).toBe('http://127.0.0.1:3000');
    expect(publicBaseUrl(settings(false), req({ host: '[::1]:3000' }))).toBe('http://[::1]:3000');
  });
  it('refuses anything that is not a host name or address (no URL injection)', () => {
    for (const host of ['evil.example/path', 'a b', 'x@evil.example', '', 'host:port:9']) {
      expect(publicBaseUrl(settings(false), req({ host }))).toBe('http://localhost');
    }
  });
});
