/** The DomainError a domain function throws (any other error, or none, fails the test). */
import { DomainError } from '../../functions/kernel/domain/errors';

export function rejection(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

/** The code of the DomainError an async use case fails with, or 'ok' when it succeeds (any other error fails the test). */
export function outcome(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'ok',
    (e: unknown) => (e instanceof DomainError ? e.code : Promise.reject(e)),
  );
}
