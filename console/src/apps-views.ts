/**
 * The answers of the console API's apps and keys routes as the Apps and Keys pages read them, and the
 * few rules of theirs the pages apply before sending (expiry presets, what counts as "expires soon").
 */

export interface McpConnectionView {
  readonly name: string;
  readonly url: string;
  /** Header values are write-only: the console API shows only the names. */
  readonly headerNames: readonly string[];
}

export interface AcpSettingsView {
  readonly termsOfUseUrl: string | null;
  readonly privacyPolicyUrl: string | null;
  readonly returnPolicyUrl: string | null;
  /** Basis points: 825 is 8.25 %. */
  readonly taxRateBps: number;
}

export interface AppSettingsView {
  readonly zeroDataRetention: boolean;
  readonly imageInput: { readonly enabled: boolean; readonly maxPerConversation: number };
  readonly model: string;
  readonly mcpConnections: readonly McpConnectionView[];
  readonly monthlyUsageCapUsd: string | null;
  readonly acp: AcpSettingsView;
}

export interface AppView {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  /** The `model` value chat clients send for this app. */
  readonly appNameId: string;
  readonly settings: AppSettingsView;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** An MCP connection as the PATCH takes it: whole, header values included. */
export interface McpConnectionInput {
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Beside what a role may not do (the server's table: `apps.manage`, `keys.manage`). */
export const APPS_MANAGE_REASON = 'Only owners, admins and developers create, change and delete apps';
export const KEYS_MANAGE_REASON = 'Only owners, admins and developers create, rotate and revoke keys';

export type KeyKind = 'org' | 'chat' | 'acp';

export const ORG_KEY_SCOPES = [
  { scope: 'apps:read', label: 'Apps', path: 'apps' },
  { scope: 'transcripts:read', label: 'Sessions and messages', path: 'sessions' },
  { scope: 'usage:read', label: 'Usage and cost', path: 'usage' },
  { scope: 'tombstones:read', label: 'Deletion feed (tombstones)', path: 'tombstones' },
] as const;

export type OrgKeyScope = (typeof ORG_KEY_SCOPES)[number]['scope'];

export interface KeyView {
  readonly id: string;
  readonly kind: KeyKind;
  readonly prefix: string;
  readonly name: string | null;
  readonly scopes: readonly OrgKeyScope[];
  readonly appId: string | null;
  readonly createdAt: string;
  readonly createdBy: { readonly kind: 'member' | 'operator'; readonly id: string; readonly email: string | null } | null;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly revoked: boolean;
  readonly revokedAt: string | null;
  readonly state: 'active' | 'expired' | 'revoked';
  readonly rotatedToId: string | null;
}

/** A key just created or rotated: the one answer that carries the secret. */
export interface IssuedKeyView extends KeyView {
  readonly key: string;
}

export interface RotatedKeyView {
  readonly successor: IssuedKeyView;
  readonly previous: KeyView;
}

export const KEY_KINDS: Readonly<Record<KeyKind, string>> = { org: 'Org key', chat: 'Chat key', acp: 'ACP key' };

const DAY_MS = 86_400_000;
/** An active key that stops working within this long is flagged, so it is rotated in time. */
const EXPIRES_SOON_MS = 7 * DAY_MS;

export const expiresSoon = (key: KeyView, nowMs = Date.now()): boolean =>
  key.state === 'active' && key.expiresAt !== null && Date.parse(key.expiresAt) - nowMs < EXPIRES_SOON_MS;

/** A preset as a number of days, `never`, or `custom` (a date picked by hand). */
export type ExpiryChoice = '7' | '30' | '90' | 'never' | 'custom';

/**
 * The `expiresAt` to send, undefined for none, or an error to show. A custom date means the end of that
 * day in UTC, so a key made "until the 31st" still works on the 31st.
 */
export function expiresAtOf(choice: ExpiryChoice, customDate: string, nowMs = Date.now()): { readonly value?: string; readonly error?: string } {
  if (choice === 'never') return {};
  if (choice !== 'custom') return { value: new Date(nowMs + Number(choice) * DAY_MS).toISOString() };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(customDate)) return { error: 'Pick the day the key stops working.' };
  const end = Date.parse(`${customDate}T23:59:59.999Z`);
  if (Number.isNaN(end) || end <= nowMs) return { error: 'Pick a day in the future.' };
  return { value: new Date(end).toISOString() };
}

/** A timestamp for a table cell: to the minute, in UTC (the same for every member, whatever their zone). */
export const shortTime = (iso: string | null, none = 'Never'): string => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : none);
