/**
 * One table of paths and what answers a GET of each: the console's page, one of its assets, or the
 * routes (the console API, or another area's 404). The local server's rule and the front door's
 * CloudFront Function are both tested against it.
 */
import type { ConsoleTarget } from '../../functions/console/console-site-paths';

export const CONSOLE_PATHS_TABLE: readonly (readonly [path: string, target: ConsoleTarget | undefined])[] = [
  ['/console', 'page'],
  ['/console/', 'page'],
  ['/console/members', 'page'],
  ['/console/apps/app_123', 'page'],
  ['/console/apps/123/', 'page'],
  ['/console/auth-help', 'page'],
  ['/console/v1beta', 'page'],
  ['/console/assets', 'page'],
  ['/console/assets/index-BxgIjnXV.js', 'asset'],
  ['/console/assets/style-3S29JuV_.css', 'asset'],
  ['/console/assets/logo.svg', 'asset'],
  ['/console/assets/', undefined],
  ['/console/assets/.source-digest', undefined],
  ['/console/assets/..%2F.source-digest', undefined],
  ['/console/assets/sub/x.js', undefined],
  ['/console/auth', undefined],
  ['/console/auth/login', undefined],
  ['/console/auth/session', undefined],
  ['/console/v1', undefined],
  ['/console/v1/orgs/org_x/plan', undefined],
  ['/console/openapi.json', undefined],
  ['/console//v1/orgs/x/usage', undefined],
  ['/console/apps/%41', undefined],
  ['/console/a b', undefined],
  ['/console/apps/x.y', undefined],
  ['/console/./members', undefined],
  ['/console/../api/v1/org/apps', undefined],
  ['/consoles', undefined],
  ['/api/v1/org/apps', undefined],
  ['/', undefined],
];
