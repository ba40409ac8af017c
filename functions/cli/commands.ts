/**
 * The admin CLI's commands: each names a route of the route table (the path lives only there), how its
 * path parameters and body come from the flags, and the flags it needs.
 */
import { readFileSync } from 'node:fs';
import { runOrderWebhookListen } from './order-webhook-listen';
import { runWebhooksListen } from './webhooks-listen';
import { bool, count, defined, json, linesFrom, list, onOff } from './flag-parsers';

export type Flags = Record<string, string | undefined>;

/** Where a command goes: the local server (with its admin token) or a deployed stack (SigV4 unless a token is set). */
export interface AdminTarget {
  readonly baseUrl: string;
  readonly token?: string;
}

interface CommandBase {
  readonly summary: string;
  readonly required: readonly string[];
  readonly optional?: readonly string[];
}

/** A command that runs by itself (not one call of one route) until it stops; resolves with the exit code. */
export interface RunCommand extends CommandBase {
  readonly run: (flags: Flags, target: AdminTarget) => Promise<number>;
}

export type Command = RouteCommand | RunCommand;

export interface RouteCommand extends CommandBase {
  readonly routeId: string;
  /** Path parameter -> flag. */
  readonly params?: Readonly<Record<string, string>>;
  readonly body?: (f: Flags) => unknown;
  /** Sent as is, with this content type (imports are JSONL). */
  readonly rawBody?: (f: Flags) => { contentType: string; text: string };
}

/** `--image-input on|off` and `--image-limit <n>` over any `imageInput` of `--settings`. */
function imageInputFrom(f: Flags, base: Record<string, unknown>): Record<string, unknown> | undefined {
  const enabled = onOff(f['image-input'], 'image-input');
  const limit = count(f['image-limit'], 'image-limit');
  if (enabled === undefined && limit === undefined) return undefined;
  return defined({ ...((base.imageInput as Record<string, unknown> | undefined) ?? {}), enabled, maxPerConversation: limit });
}

/** The ACP checkout flags (a policy URL of `none` removes it) over any `acp` of `--settings`. */
const ACP_FLAGS = ['terms-of-use-url', 'privacy-policy-url', 'return-policy-url', 'tax-rate-bps'] as const;

function acpFrom(f: Flags, base: Record<string, unknown>): Record<string, unknown> | undefined {
  if (ACP_FLAGS.every((flag) => f[flag] === undefined)) return undefined;
  const url = (flag: string) => (f[flag] === 'none' ? null : f[flag]);
  return defined({
    ...((base.acp as Record<string, unknown> | undefined) ?? {}),
    termsOfUseUrl: url('terms-of-use-url'),
    privacyPolicyUrl: url('privacy-policy-url'),
    returnPolicyUrl: url('return-policy-url'),
    taxRateBps: count(f['tax-rate-bps'], 'tax-rate-bps'),
  });
}

function settingsFrom(f: Flags): unknown {
  const base = (json(f.settings, 'settings') as Record<string, unknown> | undefined) ?? {};
  const zdr = bool(f.zdr, 'zdr');
  const imageInput = imageInputFrom(f, base);
  const acp = acpFrom(f, base);
  const merged = defined({
    ...base,
    ...(zdr !== undefined ? { zeroDataRetention: zdr } : {}),
    ...(imageInput ? { imageInput } : {}),
    ...(acp ? { acp } : {}),
    ...(f.model ? { model: f.model } : {}),
    ...(f['monthly-cap-usd'] !== undefined ? { monthlyUsageCapUsd: f['monthly-cap-usd'] === 'none' ? null : f['monthly-cap-usd'] } : {}),
  });
  return Object.keys(merged).length ? merged : undefined;
}

/**
 * A command that calls a route: `params` maps each path parameter to the flag that gives it, and those
 * flags are required before any in `more.required`.
 */
function route(
  routeId: string,
  summary: string,
  params: Readonly<Record<string, string>>,
  more: Pick<RouteCommand, 'optional' | 'body' | 'rawBody'> & { readonly required?: readonly string[] } = {},
): RouteCommand {
  const { required = [], ...rest } = more;
  return { routeId, summary, required: [...Object.values(params), ...required], ...rest, params };
}

/** The product fields of `product create` and `product update`; only an update takes `--inventory none` (no limit) and `--active`. */
function productBody(f: Flags, update: boolean): Record<string, unknown> {
  return defined({
    title: f.title,
    price: count(f.price, 'price'),
    currency: f.currency,
    description: f.description,
    inventory: update && f.inventory === 'none' ? null : count(f.inventory, 'inventory'),
    imageUrl: f['image-url'],
    ...(update ? { active: bool(f.active, 'active') } : {}),
  });
}

/** A key kind bound to one app: created for the app (printed once), revoked by its id. */
function appKeyCommands(createRouteId: string, what: string, revoked: string): Record<string, Command> {
  return {
    create: route(
      createRouteId,
      `create ${what}; printed once`,
      { appId: 'app' },
      {
        optional: ['name', 'expires-at'],
        body: (f) => defined({ name: f.name, expiresAt: f['expires-at'] }),
      },
    ),
    revoke: route('adminKeyRevoke', `revoke ${revoked}`, { keyId: 'key' }),
  };
}

export const COMMANDS: Record<string, Record<string, Command>> = {
  org: {
    create: { routeId: 'adminOrgCreate', summary: 'create an org', required: ['name', 'plan'], body: (f) => ({ name: f.name, plan: f.plan }) },
    get: route('adminOrgGet', 'show an org', { orgId: 'org' }),
    update: route(
      'adminOrgUpdate',
      'rename an org or change its plan (a first console sign-in creates a free-plan org; chat needs paid)',
      { orgId: 'org' },
      { optional: ['name', 'plan'], body: (f) => defined({ name: f.name, plan: f.plan }) },
    ),
    credits: route(
      'adminOrgCreditsAdd',
      'add prepaid credits in USD (opens the prepaid account; chat answers 402 when it is used up)',
      { orgId: 'org' },
      {
        required: ['add-usd'],
        body: (f) => ({ amountUsd: f['add-usd'] }),
      },
    ),
  },
  'org-key': {
    create: route(
      'adminOrgKeyCreate',
      'create an org key (svc_org_…); printed once',
      { orgId: 'org' },
      {
        required: ['scopes'],
        optional: ['expires-at', 'name'],
        body: (f) => defined({ scopes: list(f.scopes), expiresAt: f['expires-at'], name: f.name }),
      },
    ),
    revoke: route('adminKeyRevoke', 'revoke a key of any kind', { keyId: 'key' }),
  },
  app: {
    create: route(
      'adminAppCreate',
      'create an app',
      { orgId: 'org' },
      {
        required: ['name'],
        optional: ['slug', 'settings', 'zdr', 'model', 'monthly-cap-usd', 'image-input', 'image-limit', ...ACP_FLAGS],
        body: (f) => defined({ name: f.name, slug: f.slug, settings: settingsFrom(f) }),
      },
    ),
    get: route('adminAppGet', 'show an app with its settings', { appId: 'app' }),
    update: route(
      'adminAppUpdate',
      'rename an app or change its settings; ACP checkout: policy links (https URLs, none removes one) and the tax added to prices in basis points (825 = 8.25%)',
      { appId: 'app' },
      {
        optional: ['name', 'settings', 'zdr', 'model', 'monthly-cap-usd', 'image-input', 'image-limit', ...ACP_FLAGS],
        body: (f) => defined({ name: f.name, settings: settingsFrom(f) }),
      },
    ),
    delete: route('adminAppDelete', 'delete an app (its sessions are tombstoned in the background)', { appId: 'app' }),
  },
  'chat-key': appKeyCommands('adminChatKeyCreate', 'a chat API key for an app', 'a chat API key'),
  'acp-key': appKeyCommands('adminAcpKeyCreate', 'an ACP key (acp_ + 32 characters) for an app: checkout sessions of that app only', 'an ACP key'),
  product: {
    create: route(
      'adminProductCreate',
      "add a product to an app's ACP catalog (price in minor units: 1999 = 19.99)",
      { appId: 'app' },
      {
        required: ['title', 'price', 'currency'],
        optional: ['description', 'inventory', 'image-url'],
        body: (f) => productBody(f, false),
      },
    ),
    list: route('adminProductsList', "list an app's products (inactive ones included)", { appId: 'app' }),
    update: route(
      'adminProductUpdate',
      'change a product (--inventory none: no limit)',
      { productId: 'product' },
      {
        optional: ['title', 'price', 'currency', 'description', 'inventory', 'image-url', 'active'],
        body: (f) => productBody(f, true),
      },
    ),
    deactivate: route(
      'adminProductUpdate',
      'hide a product from discovery and checkout',
      { productId: 'product' },
      {
        body: () => ({ active: false }),
      },
    ),
  },
  order: {
    list: route('adminOrdersList', "list an app's 50 newest orders (completed ACP checkouts)", { appId: 'app' }),
    get: route('adminOrderGet', 'show an order, with the ACP Order its events carry', { appId: 'app', orderId: 'order' }),
    fulfill: route(
      'adminOrderFulfill',
      'record units sent (--lines li_…:2,li_…:1; all still to send by default); --type shipping with --carrier, --tracking-number, --tracking-url, or --type digital',
      { appId: 'app', orderId: 'order' },
      {
        required: ['type'],
        optional: ['lines', 'status', 'carrier', 'tracking-number', 'tracking-url'],
        body: (f) =>
          defined({
            type: f.type,
            status: f.status,
            lines: linesFrom(f.lines),
            carrier: f.carrier,
            trackingNumber: f['tracking-number'],
            trackingUrl: f['tracking-url'],
          }),
      },
    ),
    deliver: {
      routeId: 'adminOrderDeliver',
      summary: 'mark a shipment delivered',
      required: ['app', 'order', 'fulfillment'],
      params: { appId: 'app', orderId: 'order', fulfillmentId: 'fulfillment' },
    },
    refund: route(
      'adminOrderRefund',
      'refund --amount minor units through the payment provider; --lines names units that came back (they return to stock)',
      { appId: 'app', orderId: 'order' },
      {
        required: ['amount'],
        optional: ['lines', 'reason'],
        body: (f) => defined({ amount: count(f.amount, 'amount'), lines: linesFrom(f.lines), reason: f.reason }),
      },
    ),
    cancel: route(
      'adminOrderCancel',
      'cancel: units not sent go back to stock, and what was not refunded is refunded (--refund false keeps it)',
      { appId: 'app', orderId: 'order' },
      {
        optional: ['refund', 'reason'],
        body: (f) => defined({ refund: bool(f.refund, 'refund'), reason: f.reason }),
      },
    ),
    events: route('adminOrderEventsList', "an order's events waiting for the agent platform, and its delivery attempts", { appId: 'app', orderId: 'order' }),
  },
  'order-webhook': {
    set: route(
      'adminOrderWebhookPut',
      "set the agent platform's receiver of the app's order events (--secret as the platform issued it, or one is made and shown once)",
      { appId: 'app' },
      {
        required: ['url'],
        optional: ['secret'],
        body: (f) => defined({ url: f.url, secret: f.secret }),
      },
    ),
    get: route('adminOrderWebhookGet', "show the app's order-event receiver", { appId: 'app' }),
    delete: route('adminOrderWebhookDelete', 'stop sending the app order events', { appId: 'app' }),
    listen: {
      summary:
        "local platform started with PLATFORM_DEV_WEBHOOKS=1 only: make a local HTTPS listener (127.0.0.1, self-signed certificate made at start) the app's order-event receiver, print its secret, then every event (type, Request-Id, Merchant-Signature check, headers, body); answers 200, or forwards body and headers to --forward-to <url> and answers its status. Runs until Ctrl-C, which removes the app's order webhook and exits 0",
      required: ['app'],
      optional: ['forward-to'],
      run: runOrderWebhookListen,
    },
  },
  session: {
    delete: route('adminSessionDelete', 'delete a session (tombstone consumer_deleted)', { sessionId: 'session' }),
  },
  consumer: {
    delete: route('adminConsumerDelete', 'delete a consumer and its sessions', { consumerId: 'consumer' }),
  },
  import: {
    create: route(
      'adminImportCreate',
      'import historical sessions from a JSONL file',
      { appId: 'app' },
      {
        required: ['file'],
        rawBody: (f) => ({ contentType: 'application/x-ndjson', text: readFileSync(f.file!, 'utf8') }),
      },
    ),
  },
  job: {
    run: route('adminJobRun', 'run a scheduled job now', { jobName: 'name' }),
  },
  period: {
    publish: {
      routeId: 'adminReleasePeriodPublish',
      summary: 'publish a release-note period from a .md (front matter) or .json file: in the feed at once, delivered to matching webhooks',
      required: ['file'],
      rawBody: (f) => ({ contentType: /\.json$/i.test(f.file!) ? 'application/json' : 'text/markdown', text: readFileSync(f.file!, 'utf8') }),
    },
  },
  webhooks: {
    listen: {
      summary:
        'local platform started with PLATFORM_DEV_WEBHOOKS=1 only: subscribe a local HTTPS listener (127.0.0.1, self-signed certificate made at start), print its subscription id and secret, then every delivery (event, headers, body, signature check); answers 200, or forwards body and headers to --forward-to <url> and answers its status. Runs until Ctrl-C, which deletes the subscription and exits 0',
      required: [],
      optional: ['forward-to', 'areas', 'categories'],
      run: runWebhooksListen,
    },
  },
};
