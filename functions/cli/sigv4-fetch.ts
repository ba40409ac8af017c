/**
 * fetch signed with SigV4 for the `execute-api` service: how the CLI calls the IAM-protected admin API
 * of a deployed stack with the caller's AWS credentials.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';

type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}

class Sha256 {
  private readonly h: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.h = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: SourceData): void {
    this.h.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.h.digest());
  }
}

export async function signedFetch(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Response> {
  const u = new URL(url);
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? /execute-api\.([a-z0-9-]+)\./.exec(u.hostname)?.[1];
  if (!region) throw new Error('set AWS_REGION to sign admin API calls');
  const signer = new SignatureV4({ service: 'execute-api', region, credentials: defaultProvider(), sha256: Sha256 });
  const signed = await signer.sign({
    method: init.method,
    protocol: u.protocol,
    hostname: u.hostname,
    path: u.pathname,
    query: Object.fromEntries(u.searchParams),
    headers: { ...init.headers, host: u.host },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  return fetch(url, { method: init.method, headers: signed.headers, body: init.body });
}
