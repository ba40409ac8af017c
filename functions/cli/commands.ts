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

/** A command that calls a route with one path parameter, from one required flag, and no body. */
function byId(routeId: string, summary: string, flag: string, param: string): RouteCommand {
  return { routeId, summary, required: [flag], params: { [param]: flag } };
}

/** A key kind bound to one app: created for the app (printed once), revoked by its id. */
function appKeyCommands(createRouteId: string, what: string, revoked: string): Record<string, Command> {
  return {
    create: {
      routeId: createRouteId,
      summary: `create ${what}; printed once`,
      required: ['app'],
      optional: ['name', 'expires-at'],
      params: { appId: 'app' },
      body: (f) => defined({ name: f.name, expiresAt: f['expires-at'] }),
    },
    revoke: byId('adminKeyRevoke', `revoke ${revoked}`, 'key', 'keyId'),
  };
}

export const COMMANDS: Record<string, Record<string, Command>> = {
  org: {
    create: { routeId: 'adminOrgCreate', summary: 'create an org', required: ['name', 'plan'], body: (f) => ({ name: f.name, plan: f.plan }) },
    get: byId('adminOrgGet', 'show an org', 'org', 'orgId'),
    credits: {
      routeId: 'adminOrgCreditsAdd',
      summary: 'add prepaid credits in USD (opens the prepaid account; chat answers 402 when it is used up)',
      required: ['org', 'add-usd'],
      params: { orgId: 'org' },
      body: (f) => ({ amountUsd: f['add-usd'] }),
    },
  },
  'org-key': {
    create: {
      routeId: 'adminOrgKeyCreate',
      summary: 'create an org key (svc_org_…); printed once',
      required: ['org', 'scopes'],
      optional: ['expires-at', 'name'],
      params: { orgId: 'org' },
      body: (f) => defined({ scopes: list(f.scopes), expiresAt: f['expires-at'], name: f.name }),
    },
    revoke: byId('adminKeyRevoke', 'revoke a key of any kind', 'key', 'keyId'),
  },
  app: {
    create: {
      routeId: 'adminAppCreate',
      summary: 'create an app',
      required: ['org', 'name'],
      optional: ['slug', 'settings', 'zdr', 'model', 'monthly-cap-usd', 'image-input', 'image-limit', ...ACP_FLAGS],
      params: { orgId: 'org' },
      body: (f) => defined({ name: f.name, slug: f.slug, settings: settingsFrom(f) }),
    },
    get: byId('adminAppGet', 'show an app with its settings', 'app', 'appId'),
    update: {
      routeId: 'adminAppUpdate',
      summary:
        'rename an app or change its settings; ACP checkout: policy links (https URLs, none removes one) and the tax added to prices in basis points (825 = 8.25%)',
      required: ['app'],
      optional: ['name', 'settings', 'zdr', 'model', 'monthly-cap-usd', 'image-input', 'image-limit', ...ACP_FLAGS],
      params: { appId: 'app' },
      body: (f) => defined({ name: f.name, settings: settingsFrom(f) }),
    },
    delete: byId('adminAppDelete', 'delete an app (its sessions are tombstoned in the background)', 'app', 'appId'),
  },
  'chat-key': appKeyCommands('adminChatKeyCreate', 'a chat API key for an app', 'a chat API key'),
  'acp-key': appKeyCommands('adminAcpKeyCreate', 'an ACP key (acp_ + 32 characters) for an app: checkout sessions of that app only', 'an ACP key'),
  product: {
    create: {
      routeId: 'adminProductCreate',
      summary: "add a product to an app's ACP catalog (price in minor units: 1999 = 19.99)",
      required: ['app', 'title', 'price', 'currency'],
      optional: ['description', 'inventory', 'image-url'],
      params: { appId: 'app' },
      body: (f) =>
        defined({
          title: f.title,
          price: count(f.price, 'price'),
          currency: f.currency,
          description: f.description,
          inventory: count(f.inventory, 'inventory'),
          imageUrl: f['image-url'],
        }),
    },
    list: byId('adminProductsList', "list an app's products (inactive ones included)", 'app', 'appId'),
    update: {
      routeId: 'adminProductUpdate',
      summary: 'change a product (--inventory none: no limit)',
      required: ['product'],
      optional: ['title', 'price', 'currency', 'description', 'inventory', 'image-url', 'active'],
      params: { productId: 'product' },
      body: (f) =>
        defined({
          title: f.title,
          price: count(f.price, 'price'),
          currency: f.currency,
          description: f.description,
          inventory: f.inventory === 'none' ? null : count(f.inventory, 'inventory'),
          imageUrl: f['image-url'],
          active: bool(f.active, 'active'),
        }),
    },
    deactivate: {
      routeId: 'adminProductUpdate',
      summary: 'hide a product from discovery and checkout',
      required: ['product'],
      params: { productId: 'product' },
      body: () => ({ active: false }),
    },
  },
  order: {
    list: byId('adminOrdersList', "list an app's 50 newest orders (completed ACP checkouts)", 'app', 'appId'),
    get: {
      routeId: 'adminOrderGet',
      summary: 'show an order, with the ACP Order its events carry',
      required: ['app', 'order'],
      params: { appId: 'app', orderId: 'order' },
    },
    fulfill: {
      routeId: 'adminOrderFulfill',
      summary:
        'record units sent (--lines li_…:2,li_…:1; all still to send by default); --type shipping with --carrier, --tracking-number, --tracking-url, or --type digital',
      required: ['app', 'order', 'type'],
      optional: ['lines', 'status', 'carrier', 'tracking-number', 'tracking-url'],
      params: { appId: 'app', orderId: 'order' },
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
    deliver: {
      routeId: 'adminOrderDeliver',
      summary: 'mark a shipment delivered',
      required: ['app', 'order', 'fulfillment'],
      params: { appId: 'app', orderId: 'order', fulfillmentId: 'fulfillment' },
    },
    refund: {
      routeId: 'adminOrderRefund',
      summary: 'refund --amount minor units through the payment provider; --lines names units that came back (they return to stock)',
      required: ['app', 'order', 'amount'],
      optional: ['lines', 'reason'],
      params: { appId: 'app', orderId: 'order' },
      body: (f) => defined({ amount: count(f.amount, 'amount'), lines: linesFrom(f.lines), reason: f.reason }),
    },
    cancel: {
      routeId: 'adminOrderCancel',
      summary: 'cancel: units not sent go back to stock, and what was not refunded is refunded (--refund false keeps it)',
      required: ['app', 'order'],
      optional: ['refund', 'reason'],
      params: { appId: 'app', orderId: 'order' },
      body: (f) => defined({ refund: bool(f.refund, 'refund'), reason: f.reason }),
    },
    events: {
      routeId: 'adminOrderEventsList',
      summary: "an order's events waiting for the agent platform, and its delivery attempts",
      required: ['app', 'order'],
      params: { appId: 'app', orderId: 'order' },
    },
  },
  'order-webhook': {
    set: {
      routeId: 'adminOrderWebhookPut',
      summary: "set the agent platform's receiver of the app's order events (--secret as the platform issued it, or one is made and shown once)",
      required: ['app', 'url'],
      optional: ['secret'],
      params: { appId: 'app' },
      body: (f) => defined({ url: f.url, secret: f.secret }),
    },
    get: byId('adminOrderWebhookGet', "show the app's order-event receiver", 'app', 'appId'),
    delete: byId('adminOrderWebhookDelete', 'stop sending the app order events', 'app', 'appId'),
    listen: {
      summary:
        "local platform started with PLATFORM_DEV_WEBHOOKS=1 only: make a local HTTPS listener (127.0.0.1, self-signed certificate made at start) the app's order-event receiver, print its secret, then every event (type, Request-Id, Merchant-Signature check, headers, body); answers 200, or forwards body and headers to --forward-to <url> and answers its status. Runs until Ctrl-C, which removes the app's order webhook and exits 0",
      required: ['app'],
      optional: ['forward-to'],
      run: runOrderWebhookListen,
    },
  },
  session: {
    delete: byId('adminSessionDelete', 'delete a session (tombstone consumer_deleted)', 'session', 'sessionId'),
  },
  consumer: {
    delete: byId('adminConsumerDelete', 'delete a consumer and its sessions', 'consumer', 'consumerId'),
  },
  import: {
    create: {
      routeId: 'adminImportCreate',
      summary: 'import historical sessions from a JSONL file',
      required: ['app', 'file'],
      params: { appId: 'app' },
      rawBody: (f) => ({ contentType: 'application/x-ndjson', text: readFileSync(f.file!, 'utf8') }),
    },
  },
  job: {
    run: byId('adminJobRun', 'run a scheduled job now', 'name', 'jobName'),
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
