import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FileSecretSealer } from '../../functions/release-notes/adapters/file-secret-sealer';
import { KmsSecretSealer } from '../../functions/release-notes/adapters/kms-secret-sealer';

const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const SECRET = 'whsec_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCd';
const kms = mockClient(KMSClient);
afterEach(() => kms.reset());

describe('KmsSecretSealer', () => {
  const sealer = () => new KmsSecretSealer(new KMSClient({ region: 'eu-west-1' }), KEY_ARN);
  const blob = Uint8Array.from([1, 2, 3, 250, 251, 252]);

  it('encrypts with the stage key and an encryption context naming the purpose and the subscription', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: blob, KeyId: KEY_ARN, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
    const sealed = await sealer().seal(SECRET, { subscriptionId: 'sub-1' });
    expect(sealed).toBe(`kms1:${Buffer.from(blob).toString('base64')}`);
    const calls = kms.commandCalls(EncryptCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      KeyId: KEY_ARN,
      Plaintext: Buffer.from(SECRET, 'utf8'),
      EncryptionContext: { purpose: 'webhook-signing-secret', subscriptionId: 'sub-1' },
    });
  });

  it('decrypts with the same key and context', async () => {
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from(SECRET, 'utf8'), KeyId: KEY_ARN, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
    const opened = await sealer().open(`kms1:${Buffer.from(blob).toString('base64')}`, { subscriptionId: 'sub-1' });
    expect(opened).toBe(SECRET);
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input).toEqual({
      KeyId: KEY_ARN,
      CiphertextBlob: Buffer.from(blob),
      EncryptionContext: { purpose: 'webhook-signing-secret', subscriptionId: 'sub-1' },
    });
  });

  it('passes KMS refusals on (a context mismatch is InvalidCiphertextException)', async () => {
    kms.on(DecryptCommand).rejects(Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' }));
    await expect(sealer().open('kms1:AQID', { subscriptionId: 'other' })).rejects.toThrow(/InvalidCiphertext/);
  });

  it('fails clearly on a function without the grant, and on a value it did not seal', async () => {
    const unconfigured = new KmsSecretSealer(new KMSClient({ region: 'eu-west-1' }), undefined);
    await expect(unconfigured.seal(SECRET, { subscriptionId: 's' })).rejects.toThrow(/WEBHOOK_SECRETS_KEY_ARN/);
    await expect(sealer().open('local1:abc', { subscriptionId: 's' })).rejects.toThrow(/not a KMS-sealed/);
    expect(kms.calls()).toHaveLength(0);
  });
});

describe('FileSecretSealer (local)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sealer-'));
  const keyFile = join(dir, 'webhook-secrets.key');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a 32-byte key file readable by the owner only, and round-trips', async () => {
    const sealer = new FileSecretSealer(keyFile);
    const sealed = await sealer.seal(SECRET, { subscriptionId: 'sub-1' });
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(sealed.startsWith('local1:')).toBe(true);
    expect(sealed).not.toContain(SECRET.slice(6));
    expect(await sealer.open(sealed, { subscriptionId: 'sub-1' })).toBe(SECRET);
    // A fresh process reads the same key.
    expect(await new FileSecretSealer(keyFile).open(sealed, { subscriptionId: 'sub-1' })).toBe(SECRET);
  });

  it('uses a fresh IV per seal and binds the ciphertext to the subscription', async () => {
    const sealer = new FileSecretSealer(keyFile);
    const a = await sealer.seal(SECRET, { subscriptionId: 'sub-1' });
    expect(await sealer.seal(SECRET, { subscriptionId: 'sub-1' })).not.toBe(a);
    await expect(sealer.open(a, { subscriptionId: 'sub-2' })).rejects.toThrow();
    const tampered = `local1:${Buffer.from(Buffer.from(a.slice(7), 'base64').map((b, i) => (i === 40 ? b ^ 1 : b))).toString('base64')}`;
    await expect(sealer.open(tampered, { subscriptionId: 'sub-1' })).rejects.toThrow();
  });
});
