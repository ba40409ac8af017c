import { randomInt, randomUUID } from 'node:crypto';
import type { IdGenerator } from '../app/kernel-ports';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** UUIDs and secrets from Node's CSPRNG; `randomInt` draws without modulo bias. */
export class CryptoIds implements IdGenerator {
  uuid(): string {
    return randomUUID();
  }

  secret(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
    return out;
  }
}
