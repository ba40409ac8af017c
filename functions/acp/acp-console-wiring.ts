/**
 * Area C's console functions: the admin functions' deps (the same use cases the admin API calls) with
 * the members' stores, the console's sign-in and the admission of console members on top. Apart from
 * acp-wiring.ts so the checkout's functions never bundle the console's sign-in.
 */
import { createDocumentClient } from '../kernel/adapters/aws-clients';
import { onFirstUse } from '../tenancy/wiring/core-wiring';
import { withConsoleCallers, type ConsoleCallerPorts } from '../tenancy/wiring/console-tenancy-wiring';
import type { ConsoleWiringOptions } from '../tenancy/wiring/console-identity-wiring';
import {
  buildAcpCheckoutDeps,
  buildAcpDeps,
  buildAdminOrderWebhookDeps,
  type AcpWiringOptions,
  type AdminOrdersDeps,
  type AdminOrderWebhookDeps,
  type AdminProductsDeps,
} from './acp-wiring';

export type ConsoleProductsDeps = AdminProductsDeps & ConsoleCallerPorts;
export type ConsoleOrdersDeps = AdminOrdersDeps & ConsoleCallerPorts;
export type ConsoleOrderWebhookDeps = AdminOrderWebhookDeps & ConsoleCallerPorts;

type Options = ConsoleWiringOptions & AcpWiringOptions;

export const consoleProductsProductionDeps = /* @__PURE__ */ onFirstUse((opts: Options): ConsoleProductsDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  return withConsoleCallers(opts, db, buildAcpDeps(opts, db));
});

export const consoleOrdersProductionDeps = /* @__PURE__ */ onFirstUse((opts: Options): ConsoleOrdersDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  return withConsoleCallers(opts, db, buildAcpCheckoutDeps(opts, db));
});

export const consoleOrderWebhookProductionDeps = /* @__PURE__ */ onFirstUse((opts: Options): ConsoleOrderWebhookDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  return withConsoleCallers(opts, db, buildAdminOrderWebhookDeps(opts, db));
});
