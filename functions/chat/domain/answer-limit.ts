/**
 * An assistant answer is stored as one message item, like the messages a client sends, so it has the
 * same bound: MAX_MESSAGE_BYTES of UTF-8. A model that says more (a large max_tokens, a tool result it
 * repeats) is cut there at a character boundary, and the turn ends with finish_reason "length": what the
 * client receives is exactly what is stored and exported (docs/adr/0024).
 */
import { MAX_MESSAGE_BYTES } from './turn-fields';
import { fitUtf8, utf8Length } from '../../kernel/domain/utf8';

export const MAX_ANSWER_BYTES = MAX_MESSAGE_BYTES;

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
