/**
 * The requests of the admin API's org and app routes, one declaration per operation (keyed by route
 * id): the handlers read their input with it. Bodies are `zod/mini` schemas (their 400s quote zod's
 * English messages); path ids are UUIDs.
 */
import * as z from 'zod/mini';
import { uuidPathId } from '../http/request-declaration';
import { zodBody } from '../http/validation';
import { appSettingsPatch } from '../http/app-settings-validation';

const name = z.string().check(z.minLength(1), z.maxLength(200));

export const orgCreateRequest = z.strictObject({ name, plan: z.enum(['free', 'paid']) });
export const appCreateRequest = z.strictObject({
  name,
  slug: z.optional(z.string().check(z.minLength(1), z.maxLength(48))),
  settings: z.optional(appSettingsPatch),
});
export const appUpdateRequest = z.strictObject({ name: z.optional(name), settings: z.optional(appSettingsPatch) });
export const creditsAddRequest = z.strictObject({ amountUsd: z.string().check(z.minLength(1), z.maxLength(32)) });

const org = { orgId: uuidPathId('orgId') };
const app = { appId: uuidPathId('appId') };

export const ADMIN_REQUESTS = {
  adminOrgCreate: { body: zodBody(orgCreateRequest, { required: true }) },
  adminOrgCreditsAdd: { path: org, body: zodBody(creditsAddRequest, { required: true }) },
  adminAppCreate: { path: org, body: zodBody(appCreateRequest, { required: true }) },
  adminAppUpdate: { path: app, body: zodBody(appUpdateRequest, { required: true }) },
};
