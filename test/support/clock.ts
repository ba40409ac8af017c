import type { Clock } from '../../functions/kernel/app/kernel-ports';

/** A settable clock: starts at `startIso` (or now) and advances only when told, or with real time when `follow` is on. */
export class TestClock implements Clock {
  private offsetUs = 0;
  private readonly base: number;
  private last = 0;

  constructor(
    startIso?: string,
    private readonly follow = true,
  ) {
    this.base = startIso ? Date.parse(startIso) * 1000 - (follow ? Date.now() * 1000 : 0) : 0;
  }

  nowUs(): number {
    const us = this.base + (this.follow ? Date.now() * 1000 : 0) + this.offsetUs;
    this.last = us > this.last ? us : this.last + 1;
    return this.last;
  }

  advance(ms: number): void {
    this.offsetUs += ms * 1000;
  }
}
