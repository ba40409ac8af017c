/** Wire shapes of the admin API's tenancy resources (camelCase, like the spec's admin-side resources): orgs, keys, apps. */
import type { StoredCredential } from '../domain/credentials';
import type { App } from '../domain/app';
import type { Org } from '../domain/org';
import { microsToIso } from '../../kernel/domain/time';

export function adminOrg(org: Org) {
  return { id: org.id, name: org.name, plan: org.plan, createdAt: microsToIso(org.createdAtUs), updatedAt: microsToIso(org.updatedAtUs) };
}

export function adminCredential(cred: StoredCredential, rawKey?: string) {
  return {
    id: cred.id,
    kind: cred.kind,
    orgId: cred.orgId,
    ...(cred.appId ? { appId: cred.appId } : {}),
    ...(cred.kind === 'org' ? { scopes: cred.scopes } : {}),
    ...(cred.name ? { name: cred.name } : {}),
    ...(rawKey ? { key: rawKey } : { keyPrefix: cred.displayPrefix }),
    createdAt: microsToIso(cred.createdAtUs),
    expiresAt: cred.expiresAtUs !== undefined ? microsToIso(cred.expiresAtUs) : null,
    revokedAt: cred.revokedAtUs !== undefined ? microsToIso(cred.revokedAtUs) : null,
  };
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
