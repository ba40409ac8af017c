import * as z from 'zod/mini';
import { createWebhookSubscription } from '../app/create-webhook-subscription';
import { CHANGE_KINDS } from '../domain/release-notes';
import { CALLBACK_URL_MAX_CHARS } from '../domain/webhook-callback';
import { SUBSCRIPTION_LIMITS } from '../domain/webhook-subscription';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { subscriptionOut } from './release-notes-presenters';
import { parseWith } from '../../platform/http/validation';
import { releaseNotesProductionDeps, type ReleaseNotesFunctionDeps } from '../wiring/release-notes-wiring';

const body = z.strictObject({
  callbackUrl: z.string().check(z.minLength(1), z.maxLength(CALLBACK_URL_MAX_CHARS)),
  areas: z.optional(z.array(z.string().check(z.maxLength(SUBSCRIPTION_LIMITS.areaChars))).check(z.maxLength(SUBSCRIPTION_LIMITS.areas))),
  categories: z.optional(z.array(z.enum(CHANGE_KINDS)).check(z.maxLength(CHANGE_KINDS.length * 2))),
});

/**
 * POST /api/v1/release-notes/subscriptions: 201 with the subscription and its full `whsec_` secret,
 * shown this once. An invalid body, a non-https URL or a refused address is 400 `bad_request`.
 */
export const createHandler = (deps: ReleaseNotesFunctionDeps) =>
  httpRoute('releaseNotesSubscriptionCreate', deps, async (req) => {
    const input = parseWith(body, req.jsonBody());
    const { subscription, secret } = await createWebhookSubscription(deps, input);
    return { status: 201, body: { data: subscriptionOut(subscription, secret) }, headers: { 'Cache-Control': 'no-store' } };
  });

export const handler = lambdaHandler(createHandler, releaseNotesProductionDeps);
