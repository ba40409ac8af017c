/**
 * The local platform's routes: every handler module of the route table, built with the local deps.
 * Apart from the server, so the upload service (which serves its own routes) does not bundle them all.
 */
import type { HttpHandler } from '../http/kit';
import { ROUTES as ALL_ROUTES } from '../routes';
import type { PlatformDeps } from '../wiring/platform-wiring';
import { compile, type CompiledRoute } from './router';

/** Loads every route's handler module and builds its handler with the local deps. */
export async function loadRoutes(deps: PlatformDeps): Promise<CompiledRoute[]> {
  return Promise.all(
    ALL_ROUTES.map(async (route) => {
      const mod = (await import(`../http/${route.handler}.handler.ts`)) as { createHandler: (d: PlatformDeps) => HttpHandler };
      return compile(route, mod.createHandler(deps));
    }),
  );
}
