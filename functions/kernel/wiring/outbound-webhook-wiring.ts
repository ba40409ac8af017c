/**
 * The outbound-webhook ports every area that sends webhooks builds the same way (release notes, ACP
 * order events): the secret sealer (KMS on AWS, the data directory's key file locally), the resolver of
 * the SSRF check, its exceptions and the pinned sender. The check and its exceptions are
 * outbound-network-wiring.ts's, shared with the chat turn's outbound requests.
 */
import { createKmsClient } from '../adapters/aws-queue-clients';
import { FileSecretSealer } from '../adapters/file-secret-sealer';
import { KmsSecretSealer, type SealPurpose } from '../adapters/kms-secret-sealer';
import { NodeHttpsWebhookSender } from '../adapters/node-https-webhook-sender';
import { ENV } from '../env';
import type { CallbackCheckDeps, SecretSealer, WebhookSender } from '../app/outbound-webhook-ports';
import { buildCallbackCheck, extraTrust, type OutboundNetworkWiringOptions } from './outbound-network-wiring';

/** The seams of outbound webhooks: the secrets key file, and the SSRF check's (DNS answers, the network policy). */
export interface OutboundWebhookWiringOptions extends OutboundNetworkWiringOptions {
  /** Set by the local process only: secrets are sealed with AES-256-GCM under this key file instead of KMS (KMS has no embedded twin). */
  readonly secretsKeyFile?: string;
}

/** What registering a callback needs: the SSRF check and the sealer of its secret. */
/** The stage's sealer for one purpose: the key file locally, KMS on AWS. */
export function buildSecretSealer(opts: OutboundWebhookWiringOptions, purpose: SealPurpose): SecretSealer {
  return opts.secretsKeyFile
    ? new FileSecretSealer(opts.secretsKeyFile, purpose)
    : new KmsSecretSealer(createKmsClient(opts.aws ?? {}), opts.env[ENV.webhookSecretsKeyArn], purpose);
}

export function buildWebhookSealing(opts: OutboundWebhookWiringOptions): CallbackCheckDeps & { readonly secrets: SecretSealer } {
  return { secrets: buildSecretSealer(opts, 'webhook-signing-secret'), ...buildCallbackCheck(opts) };
}

/** The sender of the workers that deliver: pinned to the checked addresses, trusting the test CA only where a test passed one. */
export function buildWebhookSender(opts: OutboundWebhookWiringOptions): WebhookSender {
  return new NodeHttpsWebhookSender(extraTrust(opts));
}
