/**
 * The requests of the admin API's org, app and key routes that take no body: their path ids (UUIDs),
 * keyed by route id. No zod: these functions bundle none.
 */
import { uuidPathId } from '../../kernel/http/request-declaration';

const org = { orgId: uuidPathId('orgId') };
const app = { appId: uuidPathId('appId') };

export const ADMIN_RESOURCE_REQUESTS = {
  adminOrgGet: { path: org },
  adminAppGet: { path: app },
  adminAppDelete: { path: app },
  adminKeyRevoke: { path: { keyId: uuidPathId('keyId') } },
};
