import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { rotateCredential } from '../app/rotate-credential';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleKeysProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { keyView, rotatedKeyView } from './key-presenters';

/**
 * POST /console/v1/orgs/{orgId}/keys/{keyId}/rotate: a new key with the same kind, name, scopes, app and
 * expiry, shown once; the old one is revoked now or at the end of `graceSeconds`.
 */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleKeyRotate, deps, async (req) => {
    const { path, body } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleKeyRotate, req, { queryPolicy: strictQuery });
    const { orgId, caller } = consoleOrgOf(req);
    const createdBy = { kind: 'member' as const, id: caller.userKey, ...(caller.email ? { email: caller.email } : {}) };
    const rotated = await rotateCredential(deps, {
      keyId: path.keyId,
      orgId,
      createdBy,
      ...(body?.graceSeconds !== undefined ? { graceSeconds: body.graceSeconds } : {}),
    });
    const now = deps.clock.nowUs();
    return {
      status: 201,
      body: { data: rotatedKeyView(rotated, now) },
      audit: { before: keyView(rotated.previous, now), after: { successor: keyView(rotated.credential, now) } },
    };
  });

export const handler = lambdaHandler(createHandler, consoleKeysProductionDeps);
