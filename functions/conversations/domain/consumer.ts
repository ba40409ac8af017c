import type { Micros } from '../../kernel/domain/time';

/** An end user of one app: anonymous, or known by email. */
export interface Consumer {
  readonly id: string;
  readonly orgId: string;
  readonly appId: string;
  readonly email: string | null;
  readonly createdAtUs: Micros;
  /** Last message activity the retention job has seen; it re-checks the sessions before reclaiming. */
  readonly lastActiveAtUs: Micros;
}

export function isAnonymous(c: Pick<Consumer, 'email'>): boolean {
  return c.email === null;
}
