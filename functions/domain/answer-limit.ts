/**
 * An assistant answer is stored as one message item, like the messages a client sends, so it has the
 * same bound: MAX_MESSAGE_BYTES of UTF-8. A model that says more (a large max_tokens, a tool result it
 * repeats) is cut there at a character boundary, and the turn ends with finish_reason "length": what the
 * client receives is exactly what is stored and exported (docs/adr/0024).
 */
import { MAX_MESSAGE_BYTES, utf8Length } from './chat-request';

export const MAX_ANSWER_BYTES = MAX_MESSAGE_BYTES;

/** The longest prefix of `s` that is at most `maxBytes` of UTF-8, never splitting a surrogate pair. */
export function fitUtf8(s: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (n + size > maxBytes) return s.slice(0, i);
    n += size;
    if (pair) i++;
  }
  return s;
}

/** Counts an answer as it is produced: `take` returns the part of each piece that still fits. */
export class AnswerLimit {
  private used = 0;
  private cut = false;

  constructor(private readonly maxBytes: number = MAX_ANSWER_BYTES) {}

  /** True once a piece did not fit whole: the answer is complete at the limit. */
  get reached(): boolean {
    return this.cut;
  }

  take(piece: string): string {
    if (this.cut) return '';
    const size = utf8Length(piece);
    if (this.used + size <= this.maxBytes) {
      this.used += size;
      return piece;
    }
    const fitted = fitUtf8(piece, this.maxBytes - this.used);
    this.used += utf8Length(fitted);
    this.cut = true;
    return fitted;
  }
}
