/** UTF-8 sizes of strings, counted without encoding them (a lone surrogate counts as U+FFFD, 3 bytes). */

/** The longest prefix of `s` within `maxBytes` of UTF-8, never splitting a surrogate pair: its length in code units and bytes. */
function utf8Prefix(s: string, maxBytes: number): { readonly units: number; readonly bytes: number } {
  let bytes = 0;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += pair ? 2 : 1;
  }
  return { units: i, bytes };
}

/** UTF-8 length of a string. */
export function utf8Length(s: string): number {
  return utf8Prefix(s, Infinity).bytes;
}

/** The longest prefix of `s` that is at most `maxBytes` of UTF-8, never splitting a surrogate pair. */
export function fitUtf8(s: string, maxBytes: number): string {
  return s.slice(0, utf8Prefix(s, maxBytes).units);
}
