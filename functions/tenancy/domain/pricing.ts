/**
 * Prices per million tokens, and the cost of one model call as an exact decimal string (computed in
 * integer nano-dollars; never a float). The offline model carries a nominal demo price so the whole
 * billing path (usage rows, credits, caps) runs locally.
 */
export interface ModelPrice {
  /** USD per 1M tokens. Written as decimal strings to keep them exact. */
  readonly input: string;
  readonly output: string;
  readonly cacheRead: string;
  readonly cacheWrite: string;
}

export const PRICES: Readonly<Record<string, ModelPrice>> = {
  offline: { input: '0.10', output: '0.40', cacheRead: '0.01', cacheWrite: '0.125' },
  'anthropic.claude-3-5-haiku-20241022-v1:0': { input: '0.80', output: '4.00', cacheRead: '0.08', cacheWrite: '1.00' },
  'anthropic.claude-sonnet-4-20250514-v1:0': { input: '3.00', output: '15.00', cacheRead: '0.30', cacheWrite: '3.75' },
  'amazon.nova-lite-v1:0': { input: '0.06', output: '0.24', cacheRead: '0.015', cacheWrite: '0.06' },
  'amazon.nova-pro-v1:0': { input: '0.80', output: '3.20', cacheRead: '0.20', cacheWrite: '0.80' },
};

/** Models without a listed price (a self-hosted OpenAI-compatible server, say) cost this. */
export const DEFAULT_PRICE: ModelPrice = { input: '0', output: '0', cacheRead: '0', cacheWrite: '0' };

export interface TokenCounts {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadInputTokens: number;
  readonly cacheCreationInputTokens: number;
}

/** A price in USD per 1M tokens as pico-dollars per token (1 USD / 1M tokens = 1,000,000 pico-dollars per token). */
function picoPerToken(decimal: string): bigint {
  const [whole = '0', frac = ''] = decimal.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(`${frac}000000`.slice(0, 6));
}

/** Total cost in pico-dollars (1e-12 USD): exact for every price with up to six decimals. */
export function costPicoUsd(model: string, tokens: TokenCounts): bigint {
  const p = PRICES[model] ?? DEFAULT_PRICE;
  return (
    BigInt(tokens.inputTokens) * picoPerToken(p.input) +
    BigInt(tokens.outputTokens) * picoPerToken(p.output) +
    BigInt(tokens.cacheReadInputTokens) * picoPerToken(p.cacheRead) +
    BigInt(tokens.cacheCreationInputTokens) * picoPerToken(p.cacheWrite)
  );
}

/** Pico-dollars as a decimal USD string with 12 fractional digits trimmed of trailing zeros (at least 2 places). */
export function formatUsd(pico: bigint): string {
  const negative = pico < 0n;
  const abs = negative ? -pico : pico;
  const whole = abs / 1_000_000_000_000n;
  let frac = (abs % 1_000_000_000_000n).toString().padStart(12, '0').replace(/0+$/, '');
  if (frac.length < 2) frac = frac.padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** A decimal USD string -> pico-dollars; undefined when malformed. */
export function parseUsd(value: string): bigint | undefined {
  const m = /^(\d{1,9})(?:\.(\d{1,12}))?$/.exec(value);
  if (!m) return undefined;
  return BigInt(m[1]!) * 1_000_000_000_000n + BigInt((m[2] ?? '').padEnd(12, '0'));
}

/** The billing month (`YYYY-MM`, UTC) of an instant: spend caps count per app and month. */
export function billingMonth(nowUs: number): string {
  return new Date(Math.floor(nowUs / 1000)).toISOString().slice(0, 7);
}
