/**
 * A self-signed TLS certificate for a receiver on 127.0.0.1, made in memory at start (ECDSA P-256,
 * SAN `IP:127.0.0.1` and `DNS:localhost`, not a CA, server auth only). node:crypto signs but cannot
 * issue certificates, so the X.509 structure is written here in DER (RFC 5280) rather than pulling in
 * a dependency or requiring the openssl binary. The private key never leaves the process.
 */
import { X509Certificate, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

export interface SelfSignedCertificate {
  /** PEM certificate: what the platform is told to trust, exactly. */
  readonly certPem: string;
  readonly keyPem: string;
  /** SHA-256 fingerprint, as `X509Certificate#fingerprint256` prints it. */
  readonly fingerprint256: string;
}

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const len = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), len, content]);
}

const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 + n, inner);
const octets = (inner: Buffer) => tlv(0x04, inner);
const bits = (inner: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), inner]));
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));

function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && b[1]! < 0x80) b = b.subarray(1);
  return tlv(0x02, b[0]! >= 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime (years 1950-2049, RFC 5280 4.1.2.5.1). */
function utcTime(d: Date): Buffer {
  const iso = d.toISOString();
  return tlv(
    0x17,
    Buffer.from(`${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`, 'ascii'),
  );
}

const ECDSA_WITH_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));
}

/** Makes a certificate valid from an hour ago for `days` days. */
export function selfSignedCertificate(commonName: string, days = 30, now = new Date()): SelfSignedCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const name = seq(set(seq(oid('2.5.4.3'), utf8(commonName))));
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_WITH_SHA256,
    name,
    seq(utcTime(new Date(now.getTime() - 3_600_000)), utcTime(new Date(now.getTime() + days * 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(
      3,
      seq(
        // subjectAltName: iPAddress [7] 127.0.0.1, dNSName [2] localhost
        extension('2.5.29.17', false, seq(tlv(0x87, Buffer.from([127, 0, 0, 1])), tlv(0x82, Buffer.from('localhost', 'ascii')))),
        extension('2.5.29.19', true, seq()), // basicConstraints: not a CA
        extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x07, 0x80]))), // keyUsage: digitalSignature
        extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage: serverAuth
      ),
    ),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const der = seq(tbs, ECDSA_WITH_SHA256, bits(signature));
  const certPem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
  return {
    certPem,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    fingerprint256: new X509Certificate(certPem).fingerprint256,
  };
}
