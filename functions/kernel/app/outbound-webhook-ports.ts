/**
 * The ports of outbound webhooks, shared by every area that POSTs signed events to a URL a client gave
 * (release notes today, ACP order events next): resolving the callback host for the SSRF check
 * (ADR 0011), sending one attempt pinned to the checked addresses, and sealing the signing secret at
 * rest. Each area keeps its own subscriptions, body, signatures and retry rule.
 */
import type { AttemptResult } from '../domain/outbound-webhook';

/**
 * Binds a sealed secret to what owns it: opening it under any other binding fails. Each entry goes,
 * beside the sealer's own `purpose` (which a binding cannot set), into the KMS encryption context (the
 * additional authenticated data locally). An area names its own keys: release notes bind
 * `{ subscriptionId }`, so its secrets sealed before this port was shared open as they are.
 */
export type SealContext = Readonly<Record<string, string>> & { readonly purpose?: never };

/** Encrypts webhook signing secrets at rest (docs/design.md §4): KMS on AWS, a key file in the data directory locally. */
export interface SecretSealer {
  seal(plaintext: string, context: SealContext): Promise<string>;
  /** Throws SealedSecretRejected for a ciphertext that does not open under this context and purpose; other errors are the key service's. */
  open(sealed: string, context: SealContext): Promise<string>;
}

/** A ciphertext that is not one of ours, was tampered with, or was sealed under another binding or purpose. */
export class SealedSecretRejected extends Error {
  override readonly name = 'SealedSecretRejected';
}

export type Resolution =
  | { readonly addresses: readonly string[] }
  /** `not_found`: the name has no A/AAAA record; `temporary`: the resolver failed or timed out. */
  | { readonly failure: 'not_found' | 'temporary' };

/** Every A and AAAA answer for a host name (the SSRF check classifies all of them). */
export interface HostResolver {
  resolve(hostname: string): Promise<Resolution>;
}

export interface WebhookRequest {
  readonly url: string;
  readonly hostname: string;
  /** The addresses the SSRF check accepted; the connection may go to these and nowhere else. */
  readonly addresses: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly timeoutMs: number;
}

/** POSTs one webhook: pinned to the checked addresses, no redirects followed. Peer failures are results, not throws. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<AttemptResult>;
}

/**
 * Exceptions to the SSRF policy. Only test wiring sets them (a loopback receiver with a test CA);
 * the Lambda wiring and `npm start` never do, and no environment variable reaches them.
 */
export interface WebhookNetworkPolicy {
  /** Exact addresses a callback may resolve to although they are not public unicast. */
  readonly allowAddresses: readonly string[];
  /** A CA certificate (PEM) trusted in addition to the system's. */
  readonly trustedCaPem?: string;
}

/** What the SSRF check of a callback URL needs (kernel/app/check-callback-url.ts). */
export interface CallbackCheckDeps {
  readonly resolver: HostResolver;
  /** Exceptions to the SSRF policy (`WebhookNetworkPolicy.allowAddresses`): empty everywhere but in test wiring. */
  readonly webhookExceptions: readonly string[];
}
