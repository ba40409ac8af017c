import { describe, expect, it } from 'vitest';
import { AnswerLimit } from '../../functions/chat/domain/answer-limit';
import { fitUtf8 } from '../../functions/kernel/domain/utf8';

describe('fitUtf8', () => {
  it('keeps the longest prefix that fits, on a character boundary', () => {
    expect(fitUtf8('abc', 3)).toBe('abc');
    expect(fitUtf8('abc', 2)).toBe('ab');
    expect(fitUtf8('aé', 2)).toBe('a'); // é is two bytes
    expect(fitUtf8('a€', 3)).toBe('a'); // € is three
    expect(fitUtf8('a😀', 4)).toBe('a'); // never half of a surrogate pair
    expect(fitUtf8('a😀', 5)).toBe('a😀');
    expect(fitUtf8('abc', 0)).toBe('');
    expect(fitUtf8('abc', -1)).toBe('');
  });
});

describe('AnswerLimit', () => {
  it('passes pieces through until one does not fit whole, cuts that one, and drops everything after', () => {
    const limit = new AnswerLimit(6);
    expect(limit.take('ab')).toBe('ab');
    expect(limit.reached).toBe(false);
    expect(limit.take('cd')).toBe('cd');
    expect(limit.take('e😀')).toBe('e');
    expect(limit.reached).toBe(true);
    expect(limit.take('f')).toBe('');
  });

  it('is not reached by an answer of exactly the limit', () => {
    const limit = new AnswerLimit(4);
    expect(limit.take('😀')).toBe('😀');
    expect(limit.reached).toBe(false);
    expect(limit.take('')).toBe('');
    expect(limit.reached).toBe(false);
  });
});
