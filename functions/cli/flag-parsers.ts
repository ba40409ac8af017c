/** The admin CLI's flag values as the typed values a route's body wants; a bad value names its flag. */

export function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

export function json(value: string | undefined, flag: string): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw new Error(`--${flag} must be JSON`);
  }
}

export function bool(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`--${flag} must be true or false`);
}

/** `li_a:2,li_b:1` as `[{lineId, quantity}]`. */
export function linesFrom(value: string | undefined): { lineId: string; quantity: number }[] | undefined {
  return list(value)?.map((entry) => {
    const m = /^([^:]+):(\d+)$/.exec(entry);
    if (!m) throw new Error(`--lines must be <lineId>:<quantity>,…, not ${JSON.stringify(entry)}`);
    return { lineId: m[1]!, quantity: Number(m[2]) };
  });
}

export function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new Error(`--${flag} must be on or off`);
}

export function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${flag} must be a whole number`);
  return Number(value);
}
