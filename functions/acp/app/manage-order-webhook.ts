/**
 * Each app's agent-platform receiver of order events (admin API and CLI): its URL, which passes the
 * platform's SSRF check when it is set and again before every delivery, and the secret its events are
 * signed with. The agent platform usually issues that secret: the merchant sets it as given. Without
 * one, the platform makes one (`acpwhsec_` + 40 CSPRNG characters) and shows it once. It is stored sealed,
 * bound to the app, and never shown again.
 */
import { liveApp, type AppScope } from './manage-products';
import { orderWebhookSealContext } from './order-events';
import { checkCallbackUrl } from '../../kernel/app/check-callback-url';
import { badRequest, DomainError } from '../../kernel/domain/errors';
import type { CallbackCheckDeps, SecretSealer } from '../../kernel/app/outbound-webhook-ports';
import type { AcpDeps, OrderWebhook } from './acp-ports';

type OrderWebhookDeps = Pick<AcpDeps, 'apps' | 'ids' | 'clock' | 'orderWebhooks'> & CallbackCheckDeps & { readonly secrets: SecretSealer };

export const ORDER_WEBHOOK_SECRET_PREFIX = 'acpwhsec_';
const GENERATED_SECRET_LENGTH = 40;
/** A given secret: 32 to 256 printable ASCII characters, no spaces (an HMAC key shared with the agent platform). */
const GIVEN_SECRET = /^[\x21-\x7e]{32,256}$/;

const REJECTION: Record<'invalid_url' | 'refused_address' | 'dns_not_found', string> = {
  invalid_url: 'it must be an absolute https URL without credentials or a fragment',
  refused_address: 'its host resolves to an address that is not public',
  dns_not_found: 'its host does not resolve',
};

export async function setOrderWebhook(
  deps: OrderWebhookDeps,
  input: AppScope & { url: string; secret?: string },
): Promise<{ webhook: OrderWebhook; secret: string | null }> {
  const app = await liveApp(deps, input.appId, input.orgId);
  if (input.secret !== undefined && !GIVEN_SECRET.test(input.secret)) throw badRequest('Invalid secret: 32 to 256 printable ASCII characters without spaces');
  const check = await checkCallbackUrl(deps, input.url);
  if (!check.ok) {
    if (check.reason === 'dns_temporary') throw new DomainError('unavailable', 'Could not resolve the url host right now; try again');
    throw badRequest(`Invalid url: ${REJECTION[check.reason]}`);
  }
  const generated = input.secret === undefined ? ORDER_WEBHOOK_SECRET_PREFIX + deps.ids.secret(GENERATED_SECRET_LENGTH) : null;
  const secret = input.secret ?? generated!;
  const now = deps.clock.nowUs();
  const before = await deps.orderWebhooks.get(app.id);
  const webhook: OrderWebhook = {
    appId: app.id,
    orgId: app.orgId,
    url: check.url,
    sealedSecret: await deps.secrets.seal(secret, orderWebhookSealContext(app.id)),
    createdAtUs: before?.createdAtUs ?? now,
    updatedAtUs: now,
  };
  await deps.orderWebhooks.put(webhook);
  return { webhook, secret: generated };
}

export async function getOrderWebhook(deps: Pick<OrderWebhookDeps, 'apps' | 'orderWebhooks'>, input: AppScope): Promise<OrderWebhook> {
  const webhook = await findOrderWebhook(deps, input);
  if (!webhook) throw new DomainError('not_found', 'The app has no order-event receiver', 'not_found');
  return webhook;
}

/** The app's receiver, or undefined when it has none (the app itself must be the org's and live). */
export async function findOrderWebhook(deps: Pick<OrderWebhookDeps, 'apps' | 'orderWebhooks'>, input: AppScope): Promise<OrderWebhook | undefined> {
  const app = await liveApp(deps, input.appId, input.orgId);
  return deps.orderWebhooks.get(app.id);
}

/** Removes the receiver (answered, for the audit log): events already waiting are dropped when their turn comes (nothing takes them). */
export async function removeOrderWebhook(deps: Pick<OrderWebhookDeps, 'apps' | 'orderWebhooks'>, input: AppScope): Promise<OrderWebhook> {
  const webhook = await getOrderWebhook(deps, input);
  await deps.orderWebhooks.remove(webhook.appId);
  return webhook;
}
