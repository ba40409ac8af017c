/**
 * What the console API answers for the catalog and orders pages (the admin API's shapes), the paths
 * of an app's catalog, and money: the API counts minor units of a lower-case ISO currency; a person
 * reads and types amounts in the currency's own units ("18.00 USD").
 */
import { orgPath } from './api-client';
import { CONSOLE_BASE } from './pages';

export interface AcpSettingsView {
  readonly termsOfUseUrl: string | null;
  readonly privacyPolicyUrl: string | null;
  readonly returnPolicyUrl: string | null;
  readonly taxRateBps: number;
}

export interface AppView {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly settings: { readonly acp?: AcpSettingsView };
}

export interface ProductView {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly price: number;
  readonly currency: string;
  readonly inventory: number | null;
  readonly active: boolean;
  readonly imageUrl: string | null;
  readonly updatedAt: string;
}

export type OrderStatus = 'confirmed' | 'processing' | 'shipped' | 'completed' | 'canceled';

export interface OrderLine {
  readonly lineId: string;
  readonly productId: string;
  readonly title: string;
  readonly quantity: number;
  readonly unitAmount: number;
}

export interface OrderView {
  readonly id: string;
  readonly currency: string;
  readonly status: OrderStatus;
  readonly taxRateBps: number;
  readonly tax: number;
  readonly total: number;
  readonly refunded: number;
  readonly lines: readonly OrderLine[];
  readonly buyerEmail: string | null;
  readonly orderNotes: string | null;
  readonly paymentReference: string;
  readonly createdAt: string;
}

/** The ACP `Order` the detail carries: what the buyer's agent platform is told. */
export interface AcpOrderView {
  readonly line_items?: readonly {
    readonly id: string;
    readonly quantity: { readonly ordered: number; readonly current: number; readonly fulfilled: number };
    readonly status: string;
  }[];
  readonly fulfillments?: readonly {
    readonly id: string;
    readonly type: 'shipping' | 'digital';
    readonly status: 'shipped' | 'delivered';
    readonly line_items: readonly { readonly id: string; readonly quantity: number }[];
    readonly carrier?: string;
    readonly tracking_number?: string;
    readonly tracking_url?: string;
  }[];
  readonly adjustments?: readonly {
    readonly id: string;
    readonly type: 'refund' | 'cancellation';
    readonly status: 'pending' | 'completed' | 'failed';
    readonly occurred_at: string;
    readonly line_items?: readonly { readonly id: string; readonly quantity: number }[];
    readonly amount?: number;
    readonly description?: string;
  }[];
}

export interface OrderDetailView extends OrderView {
  readonly revision: number;
  readonly pendingEvents: number;
  readonly acpOrder: AcpOrderView;
}

export interface OrderEventsView {
  readonly deliveredThrough: number;
  readonly pending: readonly { readonly revision: number; readonly type: string; readonly createdAt: string }[];
  readonly attempts: readonly {
    readonly revision: number;
    readonly type: string;
    readonly attempt: number;
    readonly attemptedAt: string;
    readonly latencyMs: number;
    readonly outcome: string;
    readonly httpStatus?: number;
    readonly error?: string;
  }[];
}

export interface OrderWebhookView {
  readonly url: string;
  readonly updatedAt: string;
  /** Only in the answer that made it (a secret the platform generated), shown once. */
  readonly secret?: string;
}

export interface KeyView {
  readonly id: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly state: 'active' | 'expired' | 'revoked';
}

export const appPath = (orgId: string, appId: string, rest = ''): string => orgPath(orgId, `apps/${encodeURIComponent(appId)}${rest ? `/${rest}` : ''}`);

/** The console page of an app's catalog, or of something under it (`orders/<id>`). */
export const catalogHref = (appId: string, ...rest: string[]): string => `${CONSOLE_BASE}catalog/${[appId, ...rest].map(encodeURIComponent).join('/')}`;

/** Digits after the point in the currency's minor units (2 for USD, 0 for JPY); 2 for a code Intl does not know. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** "18.00 USD" for 1800 usd: the amount in the currency's units, with its code. */
export function money(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const whole = Number(text.slice(0, text.length - digits)).toLocaleString('en');
  return `${sign}${whole}${digits ? `.${text.slice(-digits)}` : ''} ${currency.toUpperCase()}`;
}

/** Minor units of an amount typed in the currency's units ("18", "18.5", "18.50"); undefined when it is not one. */
export function toMinor(text: string, currency: string): number | undefined {
  const digits = minorDigits(currency);
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text.trim());
  if (!match || (match[2] ?? '').length > digits) return undefined;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || '0');
}

/** The amount typed back from minor units, for a form's initial value ("18.00"). */
export const fromMinor = (minor: number, currency: string): string => money(minor, currency).replace(/ \S+$/, '').replaceAll(',', '');

/** Tax on an amount at a rate in basis points, rounded half-up as checkout rounds it. */
export const taxOf = (amount: number, rateBps: number): number => Math.floor((amount * rateBps + 5_000) / 10_000);

export const STATUS_TEXT: Record<OrderStatus, string> = {
  confirmed: 'Confirmed: paid, nothing sent yet',
  processing: 'Processing: part of it sent',
  shipped: 'Shipped: everything sent, not all delivered',
  completed: 'Completed: everything delivered',
  canceled: 'Canceled',
};

export const when = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
