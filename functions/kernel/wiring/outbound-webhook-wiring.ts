/**
 * The outbound-webhook ports every area that sends webhooks builds the same way (release notes, ACP
 * order events): the secret sealer (KMS on AWS, the data directory's key file locally), the resolver of
 * the SSRF check, its exceptions and the pinned sender. The exceptions come only from options a test
 * passes (`webhookNetwork`): the Lambda wiring and `npm start` never do, and no variable of the
 * environment schema reaches them.
 */
import { createKmsClient } from '../adapters/aws-queue-clients';
import { DnsHostResolver } from '../adapters/dns-host-resolver';
import { FileSecretSealer } from '../adapters/file-secret-sealer';
import { KmsSecretSealer, type SealPurpose } from '../adapters/kms-secret-sealer';
import { NodeHttpsWebhookSender } from '../adapters/node-https-webhook-sender';
import { ENV } from '../env';
import type { CallbackCheckDeps, HostResolver, SecretSealer, WebhookNetworkPolicy, WebhookSender } from '../app/outbound-webhook-ports';
import type { KernelWiringOptions } from './kernel-wiring';

/** The seams of outbound webhooks: the secrets key file, DNS answers and the webhook network policy. */
export interface OutboundWebhookWiringOptions extends KernelWiringOptions {
  /** Set by the local process only: secrets are sealed with AES-256-GCM under this key file instead of KMS (KMS has no embedded twin). */
  readonly secretsKeyFile?: string;
  /** Tests answer DNS for callback hosts; production resolves with node:dns. */
  readonly resolver?: HostResolver;
  /** Exceptions to the webhook SSRF policy (a loopback receiver with a test CA): test wiring only. */
  readonly webhookNetwork?: WebhookNetworkPolicy;
}

/** What registering a callback needs: the SSRF check and the sealer of its secret. */
/** The stage's sealer for one purpose: the key file locally, KMS on AWS. */
export function buildSecretSealer(opts: OutboundWebhookWiringOptions, purpose: SealPurpose): SecretSealer {
  return opts.secretsKeyFile
    ? new FileSecretSealer(opts.secretsKeyFile, purpose)
    : new KmsSecretSealer(createKmsClient(opts.aws ?? {}), opts.env[ENV.webhookSecretsKeyArn], purpose);
}

/** The SSRF check of every URL a client gives (callbacks, the Responses API's file URLs): node:dns, and no exception but a test's. */
export function buildCallbackCheck(opts: OutboundWebhookWiringOptions): CallbackCheckDeps {
  return { resolver: opts.resolver ?? new DnsHostResolver(), webhookExceptions: opts.webhookNetwork?.allowAddresses ?? [] };
}

export function buildWebhookSealing(opts: OutboundWebhookWiringOptions): CallbackCheckDeps & { readonly secrets: SecretSealer } {
  return { secrets: buildSecretSealer(opts, 'webhook-signing-secret'), ...buildCallbackCheck(opts) };
}

/** The CA an outbound HTTPS client trusts beside the system's: a test's, where a test passed one; none otherwise. */
export function extraTrust(opts: OutboundWebhookWiringOptions): { readonly trustedCaPem?: string } {
  return opts.webhookNetwork?.trustedCaPem ? { trustedCaPem: opts.webhookNetwork.trustedCaPem } : {};
}

/** The sender of the workers that deliver: pinned to the checked addresses, trusting the test CA only where a test passed one. */
export function buildWebhookSender(opts: OutboundWebhookWiringOptions): WebhookSender {
  return new NodeHttpsWebhookSender(extraTrust(opts));
}
