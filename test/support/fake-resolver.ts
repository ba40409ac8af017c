/**
 * A DNS fake for webhook callback hosts (a small fake of an external peer, docs/design.md §1). Each host
 * has a sequence of answers, used one per lookup with the last one repeated: `['93.184.215.14'],
 * ['10.0.0.1']` is a host that resolves publicly at subscribe time and privately afterwards (DNS
 * rebinding). Unknown hosts do not resolve.
 */
import type { HostResolver, Resolution } from '../../functions/kernel/app/outbound-webhook-ports';

export type FakeAnswer = readonly string[] | 'not_found' | 'temporary';

export class FakeResolver implements HostResolver {
  private readonly answers = new Map<string, FakeAnswer[]>();
  readonly lookups: string[] = [];

  set(host: string, ...answers: FakeAnswer[]): this {
    this.answers.set(host.toLowerCase(), [...answers]);
    return this;
  }

  async resolve(hostname: string): Promise<Resolution> {
    this.lookups.push(hostname);
    const queue = this.answers.get(hostname.toLowerCase());
    const answer = queue && (queue.length > 1 ? queue.shift()! : queue[0]);
    if (answer === undefined || answer === 'not_found') return { failure: 'not_found' };
    if (answer === 'temporary') return { failure: 'temporary' };
    return { addresses: answer };
  }
}
