/**
 * The local twin of the KMS sealer (docs/design.md §4): AES-256-GCM with a 32-byte key kept in a file of
 * the data directory (mode 0600, created on first use). The JSON text of the KMS encryption context
 * (the purpose and the caller's binding, e.g. `{"purpose":"webhook-signing-secret","subscriptionId":…}`)
 * is the additional authenticated data, so a secret opens only under the binding it was sealed with.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { SealedSecretRejected, type SealContext, type SecretSealer } from '../app/outbound-webhook-ports';
import { encryptionContext, SEAL_PURPOSE, type SealPurpose } from './kms-secret-sealer';

const PREFIX = 'local1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function aad(context: SealContext, purpose: SealPurpose): Buffer {
  return Buffer.from(JSON.stringify(encryptionContext(context, purpose)), 'utf8');
}

export class FileSecretSealer implements SecretSealer {
  private key?: Buffer;

  constructor(
    private readonly keyFile: string,
    private readonly purpose: SealPurpose = SEAL_PURPOSE,
  ) {}

  /** Loads the key, creating it if absent; `wx` makes two first starts agree on one key. */
  private loadKey(): Buffer {
    if (this.key) return this.key;
    try {
      writeFileSync(this.keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const key = Buffer.from(readFileSync(this.keyFile, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${this.keyFile} does not hold a 32-byte key`);
    this.key = key;
    return key;
  }

  async seal(plaintext: string, context: SealContext): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.loadKey(), iv).setAAD(aad(context, this.purpose));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
  }

  async open(sealed: string, context: SealContext): Promise<string> {
    if (!sealed.startsWith(PREFIX)) throw new SealedSecretRejected('not a locally sealed secret');
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
    const key = this.loadKey();
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES)).setAAD(aad(context, this.purpose));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch (err) {
      throw new SealedSecretRejected(`the sealed secret does not open under this binding: ${(err as Error).message}`);
    }
  }
}
