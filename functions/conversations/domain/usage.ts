import type { Micros } from '../../kernel/domain/time';

/** One model call's token usage and cost. Holds no personal data. */
export interface UsageRow {
  readonly id: number;
  readonly orgId: string;
  readonly appId: string;
  readonly sessionId: string | null;
  readonly consumerId: string | null;
  readonly model: string;
  readonly source: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadInputTokens: number;
  readonly cacheCreationInputTokens: number;
  /** Decimal string, never a float. */
  readonly costUsd: string;
  readonly createdAtUs: Micros;
}
