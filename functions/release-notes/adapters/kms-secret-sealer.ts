/**
 * Webhook signing secrets encrypted with the stage's KMS key (docs/design.md §4). The encryption context
 * binds each ciphertext to its purpose and subscription: KMS refuses to decrypt it under any other
 * context, and the IAM grants (lib/constructs/app-function.ts) only allow this purpose.
 */
import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SealContext, SecretSealer } from '../ports/release-notes-ports';

export const SEAL_PURPOSE = 'webhook-signing-secret';
const PREFIX = 'kms1:';

export function encryptionContext(context: SealContext): Record<string, string> {
  return { purpose: SEAL_PURPOSE, subscriptionId: context.subscriptionId };
}

export class KmsSecretSealer implements SecretSealer {
  constructor(
    private readonly kms: KMSClient,
    /** The key's ARN; undefined on functions without a `secrets:*` grant, which never seal or open. */
    private readonly keyArn: string | undefined,
  ) {}

  private key(): string {
    if (!this.keyArn) throw new Error('WEBHOOK_SECRETS_KEY_ARN is not set: this function has no secrets:seal/secrets:open grant');
    return this.keyArn;
  }

  async seal(plaintext: string, context: SealContext): Promise<string> {
    const res = await this.kms.send(
      new EncryptCommand({ KeyId: this.key(), Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: encryptionContext(context) }),
    );
    if (!res.CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
    return PREFIX + Buffer.from(res.CiphertextBlob).toString('base64');
  }

  async open(sealed: string, context: SealContext): Promise<string> {
    if (!sealed.startsWith(PREFIX)) throw new Error('not a KMS-sealed secret');
    const res = await this.kms.send(
      new DecryptCommand({
        KeyId: this.key(),
        CiphertextBlob: Buffer.from(sealed.slice(PREFIX.length), 'base64'),
        EncryptionContext: encryptionContext(context),
      }),
    );
    if (!res.Plaintext) throw new Error('KMS Decrypt returned no plaintext');
    return Buffer.from(res.Plaintext).toString('utf8');
  }
}
