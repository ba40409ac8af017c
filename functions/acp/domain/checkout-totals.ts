/**
 * The money of a checkout session in minor units: its lines, the tax added on top of their prices at
 * the session's rate, the (free) digital fulfillment, and the total. The one place totals are computed:
 * the session, its order, the charge of a complete and the admin API all read them from here.
 */
import type { CheckoutLine } from './checkout';

/** What the totals of a session depend on: its priced lines and the tax rate fixed with their prices. */
export interface PricedLines {
  readonly lines: readonly CheckoutLine[];
  /** Basis points (825 = 8.25%); absent: 0. */
  readonly taxRateBps?: number;
}

export interface Total {
  readonly type: 'items_base_amount' | 'subtotal' | 'tax' | 'fulfillment' | 'total';
  readonly display_text: string;
  readonly amount: number;
}

const BPS = 10_000n;

/**
 * The tax on `amount` at `rateBps`, rounded half-up to a whole minor unit: 8.25% of 1999 is 164.9175,
 * so 165; of 1000 it is 82.5, so 83. In BigInt: a subtotal times 10 000 passes 2^53.
 */
export function taxOf(amount: number, rateBps: number): number {
  return Number((BigInt(amount) * BigInt(rateBps) + BPS / 2n) / BPS);
}

/**
 * The session's tax spread over its lines so that the lines add up to it exactly: each line's exact
 * share rounded down, then the units left over one each to the lines with the largest remainders
 * (the earlier line first on a tie). A line's tax is thus within one unit of its own exact share.
 */
function lineTaxes(amounts: readonly number[], rateBps: number, tax: number): number[] {
  const exact = amounts.map((a) => BigInt(a) * BigInt(rateBps));
  const taxes = exact.map((e) => Number(e / BPS));
  let left = tax - taxes.reduce((n, t) => n + t, 0);
  const byRemainder = exact.map((e, i) => ({ i, r: e % BPS })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    taxes[i]! += 1;
    left -= 1;
  }
  return taxes;
}

/**
 * The session's totals and each line's. Tax is charged on the subtotal (fulfillment is digital and
 * free), rounded once for the session (taxOf), and `total` = `subtotal` + `fulfillment` + `tax`.
 */
function priced(s: PricedLines): { totals: Total[]; lines: Total[][] } {
  const amounts = s.lines.map((l) => l.unitAmount * l.quantity);
  const subtotal = amounts.reduce((n, a) => n + a, 0);
  const fulfillment = 0;
  const rateBps = s.taxRateBps ?? 0;
  const tax = taxOf(subtotal, rateBps);
  const taxes = lineTaxes(amounts, rateBps, tax);
  return {
    totals: [
      { type: 'items_base_amount', display_text: 'Items', amount: subtotal },
      { type: 'subtotal', display_text: 'Subtotal', amount: subtotal },
      { type: 'tax', display_text: 'Tax', amount: tax },
      { type: 'fulfillment', display_text: 'Digital delivery', amount: fulfillment },
      { type: 'total', display_text: 'Total', amount: subtotal + fulfillment + tax },
    ],
    lines: amounts.map((amount, i) => [
      { type: 'items_base_amount', display_text: 'Items', amount },
      { type: 'subtotal', display_text: 'Subtotal', amount },
      { type: 'tax', display_text: 'Tax', amount: taxes[i]! },
      { type: 'total', display_text: 'Total', amount: amount + taxes[i]! },
    ]),
  };
}

/** The session's totals (ACP `Total`s); `total` is what a complete charges. */
export function totalsOf(s: PricedLines): Total[] {
  return priced(s).totals;
}

/** Each line's totals, in the order of the lines; their taxes add up to the session's. */
export function lineTotalsOf(s: PricedLines): Total[][] {
  return priced(s).lines;
}

/** The amount of the `total` line: what a complete charges. */
export function totalAmountOf(s: PricedLines): number {
  return totalsOf(s).find((t) => t.type === 'total')!.amount;
}
