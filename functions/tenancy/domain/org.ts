import type { Micros } from '../../kernel/domain/time';

export type Plan = 'free' | 'paid';

export interface Org {
  readonly id: string;
  readonly name: string;
  readonly plan: Plan;
  readonly createdAtUs: Micros;
  readonly updatedAtUs: Micros;
}
