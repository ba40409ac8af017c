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
