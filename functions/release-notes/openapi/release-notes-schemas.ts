/**
 * Area D's wire shapes for the OpenAPI document: the RSS feed, webhook subscriptions and their
 * delivery attempts.
 */
import * as z from 'zod';
import { isoTime, uuid } from '../../kernel/openapi-kit';

const subscriptionFields = {
  id: uuid,
  callbackUrl: z.string(),
  areas: z.array(z.string()),
  categories: z.array(z.string()),
  isActive: z.boolean(),
  maskedSecret: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
};
export const subscription = z.object(subscriptionFields).meta({ title: 'Subscription' });
export const subscriptionCreated = z
  .object({ data: z.object({ ...subscriptionFields, secret: z.string().meta({ description: 'Shown once' }) }) })
  .meta({ title: 'SubscriptionCreated' });
export const subscriptionsList = z.object({ data: z.array(subscription) }).meta({ title: 'SubscriptionList' });
export const deliveriesList = z
  .object({
    data: z.array(
      z.object({
        periodId: z.string(),
        periodStart: isoTime,
        periodEnd: isoTime,
        attempt: z.int(),
        attemptedAt: isoTime,
        latencyMs: z.int(),
        outcome: z.string(),
        httpStatus: z.nullable(z.int()),
        error: z.nullable(z.string()),
      }),
    ),
  })
  .meta({ title: 'DeliveryList' });
export const releaseNotesPage = z.string().meta({ title: 'ReleaseNotesPage', description: 'HTML5: one article per period, its id the period id' });
export const rssFeed = z.string().meta({ title: 'RssFeed', description: 'RSS 2.0 with the Atom and content namespaces, newest period first' });
