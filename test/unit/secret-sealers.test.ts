import { createDecipheriv } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FileSecretSealer } from '../../functions/kernel/adapters/file-secret-sealer';
import { encryptionContext, KmsSecretSealer, SEAL_PURPOSE } from '../../functions/kernel/adapters/kms-secret-sealer';
import { SealedSecretRejected, type SealContext } from '../../functions/kernel/app/outbound-webhook-ports';

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

  it('passes KMS refusals on as a rejected secret (a context mismatch is InvalidCiphertextException), and other failures as they are', async () => {
    kms.on(DecryptCommand).rejects(Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' }));
    await expect(sealer().open('kms1:AQID', { subscriptionId: 'other' })).rejects.toBeInstanceOf(SealedSecretRejected);
    kms.reset();
    kms.on(DecryptCommand).rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    const err = await sealer()
      .open('kms1:AQID', { subscriptionId: 'sub-1' })
      .catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(SealedSecretRejected);
  });

  it('binds a console session’s tokens to a purpose of their own, which the webhook purpose’s grant does not allow', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: blob, KeyId: KEY_ARN, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
    await new KmsSecretSealer(new KMSClient({ region: 'eu-west-1' }), KEY_ARN, 'console-session-tokens').seal('{}', { consoleSession: 'h' });
    expect(kms.commandCalls(EncryptCommand)[0]!.args[0].input.EncryptionContext).toEqual({ purpose: 'console-session-tokens', consoleSession: 'h' });
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
    await expect(sealer.open(tampered, { subscriptionId: 'sub-1' })).rejects.toBeInstanceOf(SealedSecretRejected);
  });

  it('opens a ciphertext only under the purpose it was sealed for: a session’s tokens are not a signing secret', async () => {
    const sessions = new FileSecretSealer(keyFile, 'console-session-tokens');
    const sealed = await sessions.seal('{"idToken":"x"}', { consoleSession: 'h' });
    expect(await sessions.open(sealed, { consoleSession: 'h' })).toBe('{"idToken":"x"}');
    await expect(new FileSecretSealer(keyFile).open(sealed, { consoleSession: 'h' })).rejects.toBeInstanceOf(SealedSecretRejected);
  });
});

/**
 * The sealers moved from release-notes/ to platform/ and `SealContext` became a generic binding. Release
 * notes still bind `{ subscriptionId }`, and a secret sealed by the code before the move must still
 * open: the KMS encryption context and the local AAD are byte for byte what they were.
 */
describe('secrets sealed before SealContext became a generic binding', () => {
  const SUBSCRIPTION_ID = '0b6f2f4e-5d0a-4c1e-9a51-3f3c2b1d7e90';
  /** Exactly what the old `encryptionContext({ subscriptionId })` returned, in its key order. */
  const OLD_CONTEXT = { purpose: 'webhook-signing-secret', subscriptionId: SUBSCRIPTION_ID };
  const OLD_AAD = `{"purpose":"webhook-signing-secret","subscriptionId":"${SUBSCRIPTION_ID}"}`;

  it('gives release notes the very context and AAD text they had', () => {
    const context = encryptionContext({ subscriptionId: SUBSCRIPTION_ID });
    expect(context).toEqual(OLD_CONTEXT);
    expect(Object.keys(context)).toEqual(['purpose', 'subscriptionId']);
    expect(JSON.stringify(context)).toBe(OLD_AAD);
    expect(SEAL_PURPOSE).toBe('webhook-signing-secret');
  });

  it('opens an old KMS-sealed secret, sending KMS exactly the old encryption context', async () => {
    const oldBlob = Uint8Array.from([1, 2, 3, 250, 251, 252]);
    const stored = `kms1:${Buffer.from(oldBlob).toString('base64')}`;
    // KMS decrypts only under the context the ciphertext was sealed with: anything else is refused.
    kms.on(DecryptCommand).rejects(Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' }));
    kms
      .on(DecryptCommand, { KeyId: KEY_ARN, CiphertextBlob: Buffer.from(oldBlob), EncryptionContext: OLD_CONTEXT })
      .resolves({ Plaintext: Buffer.from(SECRET, 'utf8'), KeyId: KEY_ARN, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
    const sealer = new KmsSecretSealer(new KMSClient({ region: 'eu-west-1' }), KEY_ARN);
    expect(await sealer.open(stored, { subscriptionId: SUBSCRIPTION_ID })).toBe(SECRET);
    const sent = kms.commandCalls(DecryptCommand)[0]!.args[0].input;
    // Exactly the old context: no extra entry, no other key name (the mock's match above is partial).
    expect(sent).toEqual({ KeyId: KEY_ARN, CiphertextBlob: Buffer.from(oldBlob), EncryptionContext: OLD_CONTEXT });
    expect(Object.keys(sent.EncryptionContext!)).toEqual(['purpose', 'subscriptionId']);
    // And a new seal is bound the same way, so old and new secrets are one population.
    kms.on(EncryptCommand).resolves({ CiphertextBlob: oldBlob, KeyId: KEY_ARN, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
    await sealer.seal(SECRET, { subscriptionId: SUBSCRIPTION_ID });
    expect(kms.commandCalls(EncryptCommand)[0]!.args[0].input.EncryptionContext).toEqual(OLD_CONTEXT);
  });

  it('opens a locally sealed secret written by the old FileSecretSealer, and only under its subscription', async () => {
    // Generated by functions/release-notes/adapters/file-secret-sealer.ts before the move, with this key.
    const key = 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=';
    const stored = 'local1:1mRwJeLcSbXbSDKnK23UagpbZM2xftC1SVH/XSJDwkIi8iKJL9rsKMxMAOPbJwgv0Eb0VISa6ITLIHtJgVhDBU0WM6pVPO8lZlY=';
    const dir = mkdtempSync(join(tmpdir(), 'sealer-old-'));
    try {
      const keyFile = join(dir, 'webhook-secrets.key');
      writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
      // The stored value authenticates exactly the old AAD text.
      const raw = Buffer.from(stored.slice('local1:'.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64'), raw.subarray(0, 12)).setAAD(Buffer.from(OLD_AAD, 'utf8'));
      decipher.setAuthTag(raw.subarray(12, 28));
      expect(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')).toBe(SECRET);

      const sealer = new FileSecretSealer(keyFile);
      expect(await sealer.open(stored, { subscriptionId: SUBSCRIPTION_ID })).toBe(SECRET);
      await expect(sealer.open(stored, { subscriptionId: 'another-subscription' })).rejects.toThrow();
      await expect(sealer.open(stored, { subscriptionId: SUBSCRIPTION_ID, orderId: 'x' })).rejects.toThrow();
      await expect(sealer.open(stored, { id: SUBSCRIPTION_ID })).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SealContext as a generic binding', () => {
  it('puts the purpose first and the binding in key order, whatever order it was written in', () => {
    expect(encryptionContext({ orderId: 'o-1', merchantId: 'm-1' })).toEqual({ purpose: 'webhook-signing-secret', merchantId: 'm-1', orderId: 'o-1' });
    expect(JSON.stringify(encryptionContext({ orderId: 'o-1', merchantId: 'm-1' }))).toBe(
      JSON.stringify(encryptionContext({ merchantId: 'm-1', orderId: 'o-1' })),
    );
  });

  it('refuses a binding that sets the purpose or binds nothing, before any call to KMS', async () => {
    expect(() => encryptionContext({})).toThrow(/empty/);
    const hostile = { purpose: 'other' } as unknown as SealContext;
    expect(() => encryptionContext(hostile)).toThrow(/purpose/);
    const sealer = new KmsSecretSealer(new KMSClient({ region: 'eu-west-1' }), KEY_ARN);
    await expect(sealer.seal(SECRET, hostile)).rejects.toThrow(/purpose/);
    await expect(sealer.open('kms1:AQID', {})).rejects.toThrow(/empty/);
    expect(kms.calls()).toHaveLength(0);
  });

  it('round-trips a binding of another area locally, and keeps it apart from release notes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sealer-generic-'));
    try {
      const sealer = new FileSecretSealer(join(dir, 'webhook-secrets.key'));
      const sealed = await sealer.seal(SECRET, { merchantId: 'm-1', endpointId: 'e-1' });
      expect(await sealer.open(sealed, { endpointId: 'e-1', merchantId: 'm-1' })).toBe(SECRET);
      await expect(sealer.open(sealed, { merchantId: 'm-1', endpointId: 'e-2' })).rejects.toThrow();
      await expect(sealer.open(sealed, { subscriptionId: 'e-1' })).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
