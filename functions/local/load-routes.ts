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

let imported: Promise<unknown> | undefined;

/**
 * Imports every route's handler module without building it, once a process: its first platform runs this
 * beside its backends' start. Later starts skip it, as each `import()` of a loaded module still costs a
 * round of the TypeScript loader's hooks.
 */
export async function importRouteModules(): Promise<void> {
  imported ??= Promise.all(ALL_ROUTES.map((route) => importEntry(route.handler)));
  await imported;
}
