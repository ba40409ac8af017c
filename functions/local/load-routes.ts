/**
 * The local platform's routes: every handler module of the route table, built with the local deps.
 * Apart from the server, so the upload service (which serves its own routes) does not bundle them all.
 */
import type { HttpHandler } from '../kernel/http/kit';
import { ROUTES as ALL_ROUTES } from '../routes';
import type { LocalDeps } from './local-wiring';
import { compile, type CompiledRoute } from '../server/router';
import { importEntry } from './entry-modules';

/** Loads every route's handler module and builds its handler with the local deps. */
export async function loadRoutes(deps: LocalDeps): Promise<CompiledRoute[]> {
  return Promise.all(
    ALL_ROUTES.map(async (route) => {
      const mod = await importEntry<{ createHandler: (d: LocalDeps) => HttpHandler }>(route.handler);
      return compile(route, mod.createHandler(deps));
    }),
  );
}

/** Imports every route's handler module without building it: the platform's first start runs this beside its backends' start. */
export async function importRouteModules(): Promise<void> {
  await Promise.all(ALL_ROUTES.map((route) => importEntry(route.handler)));
}
