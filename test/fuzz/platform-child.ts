/**
 * The platform under fuzz, in a process of its own (spawned by platform-process.ts): a crash caused by a
 * request must show up as a dead process the fuzzer can report, as it would under `npm start`, not as
 * an unhandled rejection swallowed by the test runner. It reports its address over IPC and stops when
 * its parent goes away, so an interrupted run leaves nothing behind. Over the same channel it answers
 * one test-only request: a console member and session (`ConsoleMemberAsk`), since a console session
 * otherwise needs an OpenID sign-in this platform is not configured for.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { startPlatform, type RunningPlatform } from '../../functions/local/local-platform';
import { newConsoleSessionId } from '../../functions/tenancy/domain/console-session';
import { userKeyOf } from '../../functions/tenancy/domain/members';
import type { Role } from '../../functions/tenancy/domain/roles';
import { FakeResolver } from '../support/fake-resolver';
import { CALLBACK_HOST, CALLBACK_HOST_ADDRESS } from './credentials';

/**
 * The parent asks for a person with a console session, a member of `orgId` with `role` if both are
 * given; with `accessExpired`, the session's access token has expired (and cannot be refreshed here).
 */
export interface ConsoleMemberAsk {
  readonly kind: 'consoleMember';
  readonly id: number;
  readonly orgId?: string;
  readonly role?: Role;
  readonly accessExpired?: boolean;
}

/** The answer: the session's id (the cookie's value) and the person's member id, or what went wrong. */
export type ConsoleMemberGrant = { readonly kind: 'consoleMember'; readonly id: number } & (
  | { readonly sessionId: string; readonly memberId: string }
  | { readonly error: string }
);

/** Hours of life: no issuer is configured here, so a session whose access token expired could not be refreshed. */
const SESSION_LIFE_S = 12 * 60 * 60;
const FUZZ_ISSUER = 'https://issuer.fuzz.example';

let people = 0;

async function grantConsoleMember(platform: RunningPlatform, ask: ConsoleMemberAsk): Promise<{ sessionId: string; memberId: string }> {
  const { deps } = platform;
  const n = ++people;
  const person = { issuer: FUZZ_ISSUER, subject: `fuzz-person-${n}`, email: `person-${n}@fuzz.example` };
  const memberId = userKeyOf(person);
  if (ask.orgId !== undefined && ask.role !== undefined) {
    await deps.members.put({ orgId: ask.orgId, userKey: memberId, email: person.email, role: ask.role, joinedAtUs: deps.clock.nowUs() });
    if (ask.role === 'owner') await deps.members.addOwner(ask.orgId, memberId);
  }
  const sessionId = newConsoleSessionId();
  const nowS = Math.floor(Number(deps.clock.nowUs()) / 1_000_000);
  const expiresAtS = nowS + SESSION_LIFE_S;
  const tokens = { idToken: 'fuzz', accessToken: 'fuzz', expiresAtS: ask.accessExpired ? nowS - 60 : expiresAtS };
  await deps.consoleSessions.create(sessionId, { person, tokens, expiresAtS });
  return { sessionId, memberId };
}

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir || !process.send) throw new Error('usage: spawned by platform-process.ts with a data directory and an IPC channel');
  const platform = await startPlatform({
    dataDir,
    persist: false,
    timers: false,
    seed: false,
    logger: new Logger({ serviceName: 'platform-fuzz', logLevel: 'SILENT' }),
    resolver: new FakeResolver().set(CALLBACK_HOST, [CALLBACK_HOST_ADDRESS]),
    webhookNetwork: { allowAddresses: [CALLBACK_HOST_ADDRESS] },
  });
  const stop = () => {
    platform.stop().finally(() => process.exit(0));
  };
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.on('message', (ask: ConsoleMemberAsk) => {
    if (ask?.kind !== 'consoleMember') return;
    grantConsoleMember(platform, ask).then(
      (granted) => process.send?.({ kind: 'consoleMember', id: ask.id, ...granted } satisfies ConsoleMemberGrant),
      (err: unknown) => process.send?.({ kind: 'consoleMember', id: ask.id, error: String(err) } satisfies ConsoleMemberGrant),
    );
  });
  process.send({ baseUrl: platform.baseUrl, adminToken: platform.adminToken });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
