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
import { apiKeyRegistryFrom } from './admin-keys-wiring';
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

export function buildConsoleTenancyDeps(opts: ConsoleWiringOptions): ConsoleTenancyDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const base = { ...buildAdminBaseDeps(opts, db), apiKeys: apiKeyRegistryFrom(opts.env, opts), jobs: buildJobQueue(opts) };
  return withConsoleCallers(opts, db, base);
}

export const consoleTenancyProductionDeps = /* @__PURE__ */ onFirstUse(buildConsoleTenancyDeps);
