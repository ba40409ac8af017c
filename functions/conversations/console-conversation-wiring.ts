/**
 * The functions of the console's routes over conversations (deleting a session or a consumer): the
 * admin routes' deps, so both doors call the same use cases on the same stores, and the console
 * admission on top. Apart from conversation-wiring.ts, which chat's functions load: they carry none
 * of the console's sign-in.
 */
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { onFirstUse } from '../tenancy/wiring/core-wiring';
import type { ConsoleWiringOptions } from '../tenancy/wiring/console-identity-wiring';
import { withConsoleCallers, type ConsoleCallerPorts } from '../tenancy/wiring/console-tenancy-wiring';
import { buildConversationDeps, type ConversationAdminDeps } from './conversation-wiring';

export type ConsoleConversationDeps = ConversationAdminDeps & ConsoleCallerPorts;

export function buildConsoleConversationDeps(opts: ConsoleWiringOptions): ConsoleConversationDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return withConsoleCallers(opts, db, buildConversationDeps(opts, db));
}

export const consoleConversationProductionDeps = /* @__PURE__ */ onFirstUse(buildConsoleConversationDeps);
