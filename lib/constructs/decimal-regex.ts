/**
 * A regular expression (the subset AWS WAF accepts: no lookaround, no backreferences) matching exactly
 * the decimal integers greater than `n`, leading zeros allowed: what lets a WAF rule compare a
 * `Content-Length` header with a number, which no WAF statement does natively.
 */
export function decimalAbove(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`decimalAbove: ${n} is not a non-negative integer`);
  const digits = String(n);
  // More digits than n (no leading zero), or as many with a larger digit after a common prefix.
  const longer = `[1-9][0-9]{${digits.length},}`;
  const sameLength = [...digits].flatMap((d, i) => (d === '9' ? [] : [`${digits.slice(0, i)}[${Number(d) + 1}-9][0-9]{${digits.length - i - 1}}`]));
  return `^0*(${[longer, ...sameLength].join('|')})$`;
}
