/**
 * The console area's composition root: the sign-in routes' sessions and issuer
 * (tenancy/wiring/console-identity-wiring.ts) and the members' stores, with the console admission.
 */
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { ENV } from '../kernel/env';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../tenancy/wiring/core-wiring';
import { buildMembersPorts } from '../tenancy/wiring/members-wiring';
import { withAuditTrail } from '../tenancy/wiring/audit-wiring';
import { buildConsoleIdentityPorts, withConsoleAdmission, type ConsoleWiringOptions } from '../tenancy/wiring/console-identity-wiring';
import type { ConsoleDeps } from './app/console-ports';

export type ConsoleFunctionDeps = CoreDeps & ConsoleDeps;

/** The console's ports on top of the core deps the caller already built. */
export function buildConsolePorts(opts: ConsoleWiringOptions, db = createDocumentClient(opts.aws ?? {})): Omit<ConsoleDeps, keyof CoreDeps> {
  return { ...buildMembersPorts(db, opts.env[ENV.tableName]), ...buildConsoleIdentityPorts(opts, db) };
}

export function buildConsoleDeps(opts: ConsoleWiringOptions): ConsoleFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const ports = buildConsolePorts(opts, db);
  return { ...withConsoleAdmission(withAuditTrail(opts, db, buildCoreDeps(opts, db)), ports, ports.members, opts), ...ports };
}

export const consoleProductionDeps = /* @__PURE__ */ onFirstUse(buildConsoleDeps);
