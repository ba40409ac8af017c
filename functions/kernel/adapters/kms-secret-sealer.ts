/**
 * Webhook signing secrets encrypted with the stage's KMS key (docs/design.md §4). The encryption context
 * binds each ciphertext to its purpose and to its owner (the `SealContext` an area passes: release notes
 * bind `{ subscriptionId }`): KMS refuses to decrypt it under any other context, and the IAM grants
 * (lib/constructs/grants.ts) only allow this purpose.
 */
import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import { SealedSecretRejected, type SealContext, type SecretSealer } from '../app/outbound-webhook-ports';

/**
 * What a ciphertext is for: webhook signing secrets (release notes, the order-event receiver) or a console
 * session's tokens. Each function's IAM grant allows one purpose only, so a function that opens sessions
 * cannot open a signing secret, and the other way round.
 */
export const SEAL_PURPOSES = ['webhook-signing-secret', 'console-session-tokens'] as const;
export type SealPurpose = (typeof SEAL_PURPOSES)[number];
export const SEAL_PURPOSE: SealPurpose = 'webhook-signing-secret';
const PREFIX = 'kms1:';

/**
 * The encryption context of a binding: `purpose` first, then the binding's entries in code-unit order
 * of their keys, so equal bindings give equal contexts whatever order their keys were written in (KMS
 * ignores the order; the local sealer authenticates the JSON text of this object). Release notes'
 * `{ subscriptionId }` gives `{ purpose, subscriptionId }`, the very context its stored secrets were
 * sealed under. A binding may not set `purpose` (the IAM grants are conditioned on it) and may not be
 * empty.
 */
export function encryptionContext(context: SealContext, purpose: SealPurpose = SEAL_PURPOSE): Record<string, string> {
  const entries = Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) throw new Error('a sealed secret must be bound to something: the seal context is empty');
  if (entries.some(([key]) => key === 'purpose')) throw new Error('the seal context may not set purpose: the sealer sets it');
  return { purpose, ...Object.fromEntries(entries) };
}

export class KmsSecretSealer implements SecretSealer {
  constructor(
    private readonly kms: KMSClient,
    /** The key's ARN; undefined on functions without a `secrets:*` or `sessions:*` grant, which never seal or open. */
    private readonly keyArn: string | undefined,
    private readonly purpose: SealPurpose = SEAL_PURPOSE,
  ) {}

  private key(): string {
    if (!this.keyArn) throw new Error('WEBHOOK_SECRETS_KEY_ARN is not set: this function has no secrets:* or sessions:* grant');
    return this.keyArn;
  }

  async seal(plaintext: string, context: SealContext): Promise<string> {
    const res = await this.kms.send(
      new EncryptCommand({ KeyId: this.key(), Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: encryptionContext(context, this.purpose) }),
    );
    if (!res.CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
    return PREFIX + Buffer.from(res.CiphertextBlob).toString('base64');
  }

  async open(sealed: string, context: SealContext): Promise<string> {
    if (!sealed.startsWith(PREFIX)) throw new SealedSecretRejected('not a KMS-sealed secret');
    const res = await this.kms
      .send(
        new DecryptCommand({
          KeyId: this.key(),
          CiphertextBlob: Buffer.from(sealed.slice(PREFIX.length), 'base64'),
          EncryptionContext: encryptionContext(context, this.purpose),
        }),
      )
      .catch((err: unknown) => {
        // KMS's answer to a ciphertext of another key, context or purpose, or a damaged one.
        if ((err as Error).name === 'InvalidCiphertextException') throw new SealedSecretRejected((err as Error).message);
        throw err;
      });
    if (!res.Plaintext) throw new Error('KMS Decrypt returned no plaintext');
    return Buffer.from(res.Plaintext).toString('utf8');
  }
}
