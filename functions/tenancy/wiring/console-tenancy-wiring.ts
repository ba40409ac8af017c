/**
 * The functions of tenancy's console routes: the admin functions' stores and keys (the same use cases
 * the admin API calls), the members' stores, and the console admission on top.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../kernel/adapters/aws-clients';
import { ENV } from '../../kernel/env';
import { buildJobQueue } from '../../kernel/wiring/job-queue-wiring';
import type { JobQueue } from '../../kernel/app/kernel-ports';
import type { ConsoleIdentityPorts } from '../app/identity-ports';
import { apiKeyRegistryFrom, NO_API_KEYS } from './admin-keys-wiring';
import { buildAdminBaseDeps, type AdminBaseDeps } from './admin-wiring';
import { onFirstUse } from './core-wiring';
import { buildConsoleIdentityPorts, withConsoleAdmission, type ConsoleWiringOptions } from './console-identity-wiring';
import { buildMembersPorts, type MembersPorts } from './members-wiring';
import type { ApiKeyRegistry } from '../app/tenancy-ports';

/** What a console function of any slice has: its slice's deps, the members' stores and the console's sign-in. */
export type ConsoleCallerPorts = MembersPorts & ConsoleIdentityPorts;

/** Adds the members' stores and the console's sign-in to a slice's deps, and the admission that admits console members. */
export function withConsoleCallers<D extends AdminBaseDeps>(opts: ConsoleWiringOptions, db: DynamoDBDocumentClient, deps: D): D & ConsoleCallerPorts {
  const ports = { ...buildMembersPorts(db, opts.env[ENV.tableName]), ...buildConsoleIdentityPorts(opts, db) };
  return { ...withConsoleAdmission(deps, ports, ports.members, opts), ...ports };
}

export type ConsoleTenancyDeps = AdminBaseDeps & ConsoleCallerPorts & { readonly apiKeys: ApiKeyRegistry; readonly jobs: JobQueue };

/** The jobs queue of a function without the `jobs:send` grant: it never starts lifecycle work. */
const NO_JOBS: JobQueue = { send: () => Promise.reject(new Error('this function has no jobs:send grant')) };

/** `granted`: the gateway's keys and the jobs queue, for the functions whose grants reach them; the others refuse. */
export function buildConsoleTenancyDeps(
  opts: ConsoleWiringOptions,
  granted: { readonly apiKeys?: ApiKeyRegistry; readonly jobs?: JobQueue } = {},
): ConsoleTenancyDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const base = { ...buildAdminBaseDeps(opts, db), apiKeys: granted.apiKeys ?? NO_API_KEYS, jobs: granted.jobs ?? NO_JOBS };
  return withConsoleCallers(opts, db, base);
}

// Three declarations, so a bundle keeps only the clients of the one its route names (ADR 0014): the
// gateway's keys only for the key routes (`apiKeys:manage`), the jobs queue only for the app deletion.
export const consoleTenancyProductionDeps = /* @__PURE__ */ onFirstUse((opts) => buildConsoleTenancyDeps(opts));
export const consoleKeysProductionDeps = /* @__PURE__ */ onFirstUse((opts) => buildConsoleTenancyDeps(opts, { apiKeys: apiKeyRegistryFrom(opts.env, opts) }));
export const consoleAppDeletionProductionDeps = /* @__PURE__ */ onFirstUse((opts) => buildConsoleTenancyDeps(opts, { jobs: buildJobQueue(opts) }));
