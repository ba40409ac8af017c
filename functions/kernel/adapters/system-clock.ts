import type { Clock } from '../app/kernel-ports';

/**
 * Wall-clock microseconds: milliseconds from Date.now() plus the sub-millisecond part of the monotonic
 * clock, never going backwards within the process (a wall clock step back holds at the last value).
 */
export class SystemClock implements Clock {
  private last = 0;

  nowUs(): number {
    const ms = Date.now();
    const sub = Math.floor((performance.now() % 1) * 1000);
    const us = ms * 1000 + sub;
    this.last = us > this.last ? us : this.last + 1;
    return this.last;
  }
}
