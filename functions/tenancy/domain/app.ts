/**
 * An app of an org: the unit a chat API key, a chat session and an export row belong to.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { Micros } from '../../kernel/domain/time';

export interface McpConnection {
  readonly name: string;
  readonly url: string;
  /** Header templates; `{{session.<name>}}` is replaced by a session variable at call time. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface AppSettings {
  /** Zero Data Retention: messages are never persisted and the export shows none. */
  readonly zeroDataRetention: boolean;
  readonly imageInput: { readonly enabled: boolean; readonly maxPerConversation: number };
  /** The model behind the app, e.g. `offline`, `bedrock:<modelId>`, `openai:<model>`. */
  readonly model: string;
  readonly mcpConnections: readonly McpConnection[];
  /** Month-to-date spending limit of the app in USD (decimal string); null for none. */
  readonly monthlyUsageCapUsd: string | null;
  readonly acp: AcpSettings;
}

/** What the app's ACP checkout (area C) shows and charges besides its catalog. */
export interface AcpSettings {
  /** The merchant's policies (https), shown on every checkout session as ACP `links`; null for none. */
  readonly termsOfUseUrl: string | null;
  readonly privacyPolicyUrl: string | null;
  readonly returnPolicyUrl: string | null;
  /** Tax added on top of prices, in basis points (825 = 8.25%), 0 to MAX_TAX_RATE_BPS. */
  readonly taxRateBps: number;
}

/** 100%: a higher rate is a typo, not a tax. */
export const MAX_TAX_RATE_BPS = 10_000;

export const DEFAULT_APP_SETTINGS: AppSettings = {
  zeroDataRetention: false,
  imageInput: { enabled: true, maxPerConversation: 10 },
  model: 'offline',
  mcpConnections: [],
  monthlyUsageCapUsd: null,
  acp: { termsOfUseUrl: null, privacyPolicyUrl: null, returnPolicyUrl: null, taxRateBps: 0 },
};

export interface App {
  readonly id: string;
  readonly orgId: string;
  readonly name: string;
  readonly slug: string;
  /** The chat `model` value: `<slug>-<number>`. */
  readonly appNameId: string;
  readonly settings: AppSettings;
  readonly createdAtUs: Micros;
  readonly updatedAtUs: Micros;
  readonly deletedAtUs?: Micros;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const APP_NAME_ID = /^([a-z0-9]+(?:-[a-z0-9]+)*)-(\d+)$/;

/** A URL-safe slug from a display name: lower case ASCII letters and digits joined by single dashes. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
  return slug || 'app';
}

export function validateSlug(slug: string): string {
  if (!SLUG.test(slug) || slug.length > 48) {
    throw badRequest('Invalid slug: lower-case letters and digits joined by single dashes, at most 48 characters');
  }
  return slug;
}

export function appNameIdOf(slug: string, number: number): string {
  return `${slug}-${number}`;
}

export function isAppNameId(value: string): boolean {
  return APP_NAME_ID.test(value);
}

export function mergeSettings(current: AppSettings, patch: Partial<AppSettings>): AppSettings {
  return {
    ...current,
    ...patch,
    imageInput: { ...current.imageInput, ...(patch.imageInput ?? {}) },
    acp: { ...current.acp, ...(patch.acp ?? {}) },
  };
}
