import { LAST_USED_INTERVAL_US } from '../domain/credentials';
import type { Micros } from '../../kernel/domain/time';
import type { Telemetry } from '../../kernel/app/kernel-ports';
import type { PlatformPorts } from './tenancy-ports';

/** Keys a process remembers writing; past this the one written longest ago is forgotten (and may be written again). */
export const LAST_USE_MEMORY = 10_000;

export type LastUseDeps = Pick<PlatformPorts, 'credentials' | 'clock'> & Pick<Telemetry, 'logger'>;

/**
 * A key's last use, as the console's key list shows it: written at most once a minute per key and
 * never in a request's way. This process skips a key it touched less than a minute ago; a write is
 * conditional on the stored use being older than a minute, so other processes' touches count too (a
 * refused condition is the normal answer there). A failed write is logged, never the request's error.
 */
export class LastUseRecorder {
  private readonly touched = new Map<string, Micros>();

  constructor(
    private readonly deps: LastUseDeps,
    private readonly memory = LAST_USE_MEMORY,
  ) {}

  /** Records a use of `keyId` now, if due; settles when done, and never rejects. */
  touchLastUsed(keyId: string): Promise<void> {
    const now = this.deps.clock.nowUs();
    const last = this.touched.get(keyId);
    if (last !== undefined && now - last < LAST_USED_INTERVAL_US) return Promise.resolve();
    this.touched.delete(keyId);
    if (this.touched.size >= this.memory) this.touched.delete(this.touched.keys().next().value!);
    this.touched.set(keyId, now);
    return this.write(keyId, now);
  }

  private async write(keyId: string, now: Micros): Promise<void> {
    try {
      await this.deps.credentials.touchLastUsed(keyId, now, LAST_USED_INTERVAL_US);
    } catch (err) {
      this.deps.logger.warn('the last use of a key was not recorded', { keyId, error: err instanceof Error ? err.message : String(err) });
    }
  }
}
