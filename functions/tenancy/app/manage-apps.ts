import { DEFAULT_APP_SETTINGS, mergeSettings, slugify, validateSlug, type App, type AppSettings } from '../domain/app';
import { badRequest, notFound } from '../../kernel/domain/errors';
import type { PlatformDeps } from './tenancy-ports';

/** Creates an app in an org; its `appNameId` is `<slug>-<number>` and unique on the platform. */
export async function createApp(
  deps: Pick<PlatformDeps, 'orgs' | 'apps' | 'ids' | 'clock'>,
  input: { orgId: string; name: string; slug?: string; settings?: Partial<AppSettings> },
): Promise<App> {
  if (!(await deps.orgs.get(input.orgId))) throw notFound('Org not found');
  const name = input.name.trim();
  if (!name) throw badRequest('Invalid name: must not be empty');
  const slug = input.slug !== undefined ? validateSlug(input.slug) : slugify(name);
  const now = deps.clock.nowUs();
  return deps.apps.create({
    id: deps.ids.uuid(),
    orgId: input.orgId,
    name,
    slug,
    settings: mergeSettings(DEFAULT_APP_SETTINGS, input.settings ?? {}),
    createdAtUs: now,
    updatedAtUs: now,
  });
}

export async function getApp(deps: Pick<PlatformDeps, 'apps'>, input: { appId: string }): Promise<App> {
  const app = await deps.apps.get(input.appId);
  if (!app || app.deletedAtUs !== undefined) throw notFound('App not found');
  return app;
}

/** An app of `orgId`: another org's app is as absent as one that never existed (404). */
export async function getOrgApp(deps: Pick<PlatformDeps, 'apps'>, input: { orgId: string; appId: string }): Promise<App> {
  const app = await getApp(deps, input);
  if (app.orgId !== input.orgId) throw notFound('App not found');
  return app;
}

/** Renames an app or changes its settings (merged over the current ones). */
export async function updateApp(
  deps: Pick<PlatformDeps, 'apps' | 'clock'>,
  input: { appId: string; name?: string; settings?: Partial<AppSettings> },
): Promise<App> {
  const current = await getApp(deps, input);
  if (input.name !== undefined && !input.name.trim()) throw badRequest('Invalid name: must not be empty');
  const updated = await deps.apps.update(
    input.appId,
    {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.settings !== undefined ? { settings: mergeSettings(current.settings, input.settings) } : {}),
    },
    deps.clock.nowUs(),
  );
  if (!updated) throw notFound('App not found');
  return updated;
}

/**
 * Deletes an app: it leaves the apps list at once; the jobs worker then tombstones and removes its
 * sessions and consumers in batches (processAppDeletion). If the queue message is lost, the sweep job
 * finds the app in the pending list and queues it again.
 */
export async function deleteApp(deps: Pick<PlatformDeps, 'apps' | 'jobs' | 'clock'>, input: { appId: string }): Promise<App> {
  const app = await deps.apps.markDeleted(input.appId, deps.clock.nowUs());
  if (!app) throw notFound('App not found');
  await deps.jobs.send({ type: 'app-deletion', appId: app.id });
  return app;
}
