/** Wire shapes of the spec's resources, built from domain values. */
import type { App } from '../domain/app';
import { microsToIso } from '../domain/time';

export function exportApp(app: App) {
  return { id: app.id, name: app.name, slug: app.slug, created_at: microsToIso(app.createdAtUs), updated_at: microsToIso(app.updatedAtUs) };
}

/** The admin view of an app: everything a builder sets, including settings and the chat `model` value. */
export function adminApp(app: App) {
  return {
    id: app.id,
    orgId: app.orgId,
    name: app.name,
    slug: app.slug,
    appNameId: app.appNameId,
    settings: app.settings,
    createdAt: microsToIso(app.createdAtUs),
    updatedAt: microsToIso(app.updatedAtUs),
    ...(app.deletedAtUs !== undefined ? { deletedAt: microsToIso(app.deletedAtUs) } : {}),
  };
}
