/**
 * What one outbound webhook attempt comes to, whichever area sends it (release notes today, ACP order
 * events): the peer's HTTP status, or the class of the failure. The sender returns it; the retry rule
 * over it is shared, and each area keeps how many attempts it makes and how long it waits between them.
 */

/** Why an attempt did not get a 2xx, as a delivery log shows it (never an internal address). */
export type DeliveryErrorClass = 'timeout' | 'network' | 'tls' | 'dns' | 'refused_address' | 'invalid_url';

export type AttemptResult = { readonly status: number } | { readonly error: DeliveryErrorClass };

/** What an attempt leads to: done, another attempt later, or given up. */
export type AttemptOutcome = 'delivered' | 'retry' | 'dropped';

/**
 * The retry rule every area's webhooks share: a 2xx is delivered; a network error, a timeout, 408, 429
 * or 5xx is tried again while attempts remain; anything else (another 4xx, a redirect), or a refused
 * address or an invalid URL (the policy's answer, not a transient failure), drops the delivery.
 */
export function attemptOutcome(result: AttemptResult, attempt: number, maxAttempts: number): AttemptOutcome {
  let retryable: boolean;
  if ('status' in result) {
    if (result.status >= 200 && result.status < 300) return 'delivered';
    retryable = result.status === 408 || result.status === 429 || result.status >= 500;
  } else {
    retryable = result.error !== 'refused_address' && result.error !== 'invalid_url';
  }
  return retryable && attempt < maxAttempts ? 'retry' : 'dropped';
}
