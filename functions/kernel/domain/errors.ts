/**
 * Domain errors carry a code; one table per API area (functions/kernel/domain/error-bodies.ts) maps each code to
 * the exact status and body the spec demands. Anything else is an unexpected error: a logged 500.
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'expired'
  | 'plan_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'not_allowed'
  | 'payload_too_large'
  /** The request-target is longer than the front door forwards (414). */
  | 'uri_too_long'
  /** The request's header section is larger than the front door reads (431). */
  | 'headers_too_large'
  | 'payment_required'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  /** The model could not give what the request asked for (a structured answer that stays invalid): 500 with the reason. */
  | 'model_failed';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /**
     * A machine-readable code the area shows beside the message, where the spec names one (area B's 422
     * `IMAGE_INPUT_DISABLED` / `IMAGE_LIMIT_REACHED`: `{ error: <detail>, message }`).
     */
    readonly detail?: string,
    /** Area C: the JSONPath of the request field at fault (ACP `Error.param`). */
    readonly param?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** A dependency is down for a while (object storage): 503 with `Retry-After`. */
export class TemporarilyUnavailableError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('unavailable', message);
    this.name = 'TemporarilyUnavailableError';
  }
}

/** A request over its window's limit; `retryAfterSeconds` is computed from the window (docs/design.md §5). */
export class RateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Rate limit exceeded',
  ) {
    super('rate_limited', message);
    this.name = 'RateLimitedError';
  }
}

/** The resource is busy with another request right now (a chat session's running turn): 409 with `Retry-After`. */
export class BusyError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('conflict', message);
    this.name = 'BusyError';
  }
}

export const badRequest = (message: string): DomainError => new DomainError('bad_request', message);
export const notFound = (message: string): DomainError => new DomainError('not_found', message);
