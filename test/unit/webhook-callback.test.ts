import { describe, expect, it } from 'vitest';
import { checkAddresses, classifyAddress, parseCallbackUrl } from '../../functions/kernel/domain/webhook-callback';

describe('parseCallbackUrl', () => {
  it.each([
    ['https://hooks.example.com/a?b=1', 'https://hooks.example.com/a?b=1', 'hooks.example.com', undefined],
    ['https://EXAMPLE.com:443/x', 'https://example.com/x', 'example.com', undefined],
    ['https://127.1/', 'https://127.0.0.1/', '127.0.0.1', '127.0.0.1'],
    ['https://2130706433/', 'https://127.0.0.1/', '127.0.0.1', '127.0.0.1'],
    ['https://0x7f.0.0.1/', 'https://127.0.0.1/', '127.0.0.1', '127.0.0.1'],
    ['https://0177.0.0.1/', 'https://127.0.0.1/', '127.0.0.1', '127.0.0.1'],
    ['https://１２７.０.０.１/', 'https://127.0.0.1/', '127.0.0.1', '127.0.0.1'],
    ['https://127。0。0。1/', 'https://127.0.0.1/', '127.0.0.1', '127.0.0.1'],
    ['https://127.0.0.1./', 'https://127.0.0.1/', '127.0.0.1', '127.0.0.1'],
    ['https://[::ffff:127.0.0.1]/', 'https://[::ffff:7f00:1]/', '::ffff:7f00:1', '::ffff:7f00:1'],
    ['https://localhost./', 'https://localhost./', 'localhost.', undefined],
  ])('normalizes %s and finds IP literals on the parsed host', (raw, href, hostname, literal) => {
    expect(parseCallbackUrl(raw)).toEqual({ ok: true, target: { href, hostname, ...(literal ? { literal } : {}) } });
  });

  it.each([
    ['http://example.com/', 'not_https'],
    ['ftp://example.com/', 'not_https'],
    ['https://u:p@example.com/', 'userinfo'],
    ['https://u@example.com/', 'userinfo'],
    ['https://example.com/#x', 'fragment'],
    ['https://example.com/#', 'fragment'],
    ['https://exa\tmple.com/', 'malformed'],
    ['https://example.com/\r\n', 'malformed'],
    ['https://example.com\\@evil/', 'malformed'],
    ['https://exa mple.com/', 'malformed'],
    ['https://example.com/\u0085', 'malformed'],
    ['https://', 'malformed'],
    ['nonsense', 'malformed'],
    [`https://example.com/${'a'.repeat(2048)}`, 'too_long'],
  ])('refuses %j (%s)', (raw, problem) => {
    expect(parseCallbackUrl(raw)).toEqual({ ok: false, problem });
  });
});

describe('classifyAddress: only ordinary public unicast passes', () => {
  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])('allows %s', (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'discard'],
    ['::ffff:127.0.0.1', 'ipv4Mapped(loopback)'],
    ['::ffff:169.254.169.254', 'ipv4Mapped(linkLocal)'],
    ['::ffff:8.8.8.8', 'ipv4Mapped(unicast)'],
    ['::7f00:1', 'ipv4Compatible(loopback)'],
    ['64:ff9b::7f00:1', 'nat64(loopback)'],
    ['64:ff9b::a00:1', 'nat64(private)'],
    ['64:ff9b:1::a00:1', 'nat64(private)'],
    ['2002:7f00:1::1', '6to4(loopback)'],
    ['2002:a9fe:a9fe::1', '6to4(linkLocal)'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'teredo(loopback)'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'teredo(private)'],
    ['not-an-ip', 'invalid'],
    ['127.1', 'invalid'],
  ])('refuses %s (%s)', (address, range) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, range });
  });
});

describe('checkAddresses', () => {
  it('refuses when any one answer is not public, and when there is none', () => {
    expect(checkAddresses(['93.184.215.14', '2606:4700:4700::1111'])).toEqual({ allowed: true });
    expect(checkAddresses(['93.184.215.14', '10.0.0.1'])).toEqual({ allowed: false, range: 'private' });
    expect(checkAddresses(['::1', '93.184.215.14'])).toEqual({ allowed: false, range: 'loopback' });
    expect(checkAddresses([])).toEqual({ allowed: false, range: 'no_address' });
  });

  it('lets exactly the listed exception addresses through (test wiring only)', () => {
    expect(checkAddresses(['127.0.0.1'], ['127.0.0.1'])).toEqual({ allowed: true });
    expect(checkAddresses(['127.0.0.2'], ['127.0.0.1'])).toEqual({ allowed: false, range: 'loopback' });
    expect(checkAddresses(['127.0.0.1', '10.0.0.1'], ['127.0.0.1'])).toEqual({ allowed: false, range: 'private' });
  });
});
