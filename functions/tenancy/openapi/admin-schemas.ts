/**
 * The admin API's wire shapes of tenancy (camelCase, as tenancy/http/admin-presenters.ts writes them:
 * orgs, apps, keys) and the envelope every admin answer has, for the admin OpenAPI document.
 */
import * as z from 'zod';
import { isoTime as isoTimestamp, uuid } from '../../kernel/openapi-kit';

/** Every admin answer with a body: `{ data: … }`. */
export const adminData = (schema: z.ZodType, title: string) => z.object({ data: schema }).meta({ title });

export const adminOrg = z
  .object({ id: uuid, name: z.string(), plan: z.enum(['free', 'paid']), createdAt: isoTimestamp, updatedAt: isoTimestamp })
  .meta({ title: 'AdminOrg' });

export const adminApp = z
  .object({
    id: uuid,
    orgId: uuid,
    name: z.string(),
    slug: z.string(),
    appNameId: z.string().meta({ description: 'The `model` value chat clients send for this app' }),
    settings: z
      .record(z.string(), z.unknown())
      .meta({ description: 'Zero Data Retention, image input, model, MCP connections, usage cap, ACP policies and tax' }),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
    deletedAt: isoTimestamp.optional().meta({ description: 'Present once the app is deleted' }),
  })
  .meta({ title: 'AdminApp' });

export const adminCredential = z
  .object({
    id: uuid,
    kind: z.enum(['org', 'chat', 'acp']),
    orgId: uuid,
    appId: uuid.optional().meta({ description: 'Chat and ACP keys: the app the key is bound to' }),
    scopes: z.array(z.string()).optional().meta({ description: 'Org keys: the read scopes' }),
    name: z.string().optional(),
    key: z.string().optional().meta({ description: 'The key itself: in the answer that created it, and never again' }),
    keyPrefix: z.string().optional().meta({ description: 'The key’s first characters, to recognize it (every answer but the one that created it)' }),
    createdAt: isoTimestamp,
    expiresAt: z.nullable(isoTimestamp),
    revokedAt: z.nullable(isoTimestamp),
  })
  .meta({ title: 'AdminKey' });

export const creditsBalance = z
  .object({ creditsUsd: z.string().meta({ description: 'The org’s prepaid balance after the addition, in USD' }) })
  .meta({ title: 'CreditsBalance' });
