/**
 * The `payment_data` of a complete, checked against ACP 2026-04-17 `PaymentData` (a closed object:
 * `{handler_id, instrument: {type, credential: {type, token}}, billing_address?}` and the B2B members),
 * or the 2025-09-29 `{token, provider?, billing_address?}` still accepted from older agents. What is
 * kept until the charge settles is a fresh object of the checked members, never the request's own.
 */
import type { CheckoutMessage, PaymentHandlerView } from './checkout';
import { ADDRESS } from './request-objects';
import { isRecord } from '../../kernel/domain/request-rule';
import { boolean, check, described, invalid, label, object, own, pick, string, type Check, type JsonSchema } from './request-shape';

/** A payment handler as the payment port offers it: its ACP view, and what its charges take. */
export interface PaymentHandler extends PaymentHandlerView {
  /** The `payment_data.instrument.type` values it charges; never shown (ACP's handler object is closed). */
  readonly instrumentTypes: readonly string[];
  /** The `payment_data.instrument.credential.type` values it charges (`spt`: a shared payment token). */
  readonly credentialTypes: readonly string[];
}

/** The handler as a session shows it (ACP `PaymentHandler`): its ACP members only. */
export function handlerView(h: PaymentHandlerView): PaymentHandlerView {
  return {
    id: h.id,
    name: h.name,
    display_name: h.display_name,
    version: h.version,
    spec: h.spec,
    requires_delegate_payment: h.requires_delegate_payment,
    requires_pci_compliance: h.requires_pci_compliance,
    psp: h.psp,
    config_schema: h.config_schema,
    instrument_schemas: [...h.instrument_schemas],
    config: h.config,
  };
}

type Address = Readonly<Record<string, unknown>>;

/** What a complete keeps of its `payment_data` until the charge settles. */
export type CheckedPaymentData =
  | {
      readonly handler_id: string;
      readonly instrument: { readonly type: string; readonly credential: { readonly type: string; readonly token: string } };
      readonly billing_address?: Address;
    }
  | { readonly token: string; readonly provider?: string; readonly billing_address?: Address };

const AT = '$.payment_data';
const ADDRESS_KEYS = ['name', 'line_one', 'line_two', 'city', 'state', 'country', 'postal_code', 'company'];
/** Shared payment tokens are short; a longer one is not a token, and everything kept must fit the session item. */
const MAX_TOKEN = 1024;
const token = string({ nonEmpty: true, max: MAX_TOKEN });
const typeName = string({ nonEmpty: true, max: 64 });

const B2B_REFUSED =
  "is not supported: this platform's payment handlers take no B2B payment (purchase orders, deferred terms, approvals); pay with handler_id and instrument";

/** A B2B member: its JSON type is checked, then the values this platform cannot honour are refused. */
function b2b(c: Check, refused: (value: unknown) => boolean, accepted: string): Check {
  return check(
    (v, at) => {
      c.read(v, at);
      if (refused(v)) throw invalid('unsupported', `${label(at)} ${B2B_REFUSED}`, at);
    },
    { ...c.schema, description: accepted },
  );
}

const PAYMENT_DATA = object({
  handler_id: string({ max: 256 }),
  instrument: object({ type: typeName, credential: object({ type: typeName, token }, { required: ['type', 'token'] }) }, { required: ['type', 'credential'] }),
  billing_address: ADDRESS,
  purchase_order_number: b2b(string(), () => true, 'B2B: always refused (400 unsupported)'),
  payment_terms: b2b(
    string({ oneOf: ['immediate', 'net_15', 'net_30', 'net_60', 'net_90'] }),
    (v) => v !== 'immediate',
    'Only immediate (the others are 400 unsupported)',
  ),
  // Moot with immediate payment: checked, then not kept.
  due_date: string({ format: 'date-time' }),
  approval_required: b2b(boolean, (v) => v === true, 'Only false (true is 400 unsupported)'),
});

const LEGACY_PAYMENT_DATA = object({ token, provider: string({ max: 64 }), billing_address: ADDRESS }, { required: ['token'], description: 'ACP 2025-09-29' });

/** What a complete's `payment_data` may be, as the document shows it (checkPaymentData checks it). */
export const PAYMENT_DATA_SCHEMA: JsonSchema = {
  anyOf: [described(PAYMENT_DATA, 'handler_id is required when the session offers more than one handler').schema, LEGACY_PAYMENT_DATA.schema],
};

function handlerFor(handlers: readonly PaymentHandler[], id: string | undefined): PaymentHandler {
  if (id === undefined) {
    // ACP requires handler_id; with one handler on offer there is nothing to choose, as before the field existed.
    if (handlers.length === 1) return handlers[0]!;
    throw invalid('missing', `payment_data.handler_id is required: one of ${handlers.map((h) => h.id).join(', ')}`, `${AT}.handler_id`);
  }
  const handler = handlers.find((h) => h.id === id);
  if (!handler) throw invalid('invalid', `Unknown payment handler: ${id.slice(0, 100)}`, `${AT}.handler_id`);
  return handler;
}

function addressOf(data: Record<string, unknown>): { billing_address?: Address } {
  const address = own(data, 'billing_address');
  return isRecord(address) ? { billing_address: pick(address, ADDRESS_KEYS) } : {};
}

/**
 * Checks a complete's `payment_data` against the handlers on offer: closed at every level, an
 * instrument and credential type the chosen handler charges, the B2B branch refused. Pure: the
 * handlers are given.
 */
export function checkPaymentData(value: unknown, handlers: readonly PaymentHandler[]): CheckedPaymentData {
  if (value === undefined) throw invalid('missing', 'payment_data is required: { handler_id, instrument: { type, credential: { type, token } } }', AT);
  if (!isRecord(value)) throw invalid('invalid', 'payment_data must be an object { handler_id, instrument: { type, credential: { type, token } } }', AT);
  if (Object.hasOwn(value, 'token') || Object.hasOwn(value, 'provider')) {
    LEGACY_PAYMENT_DATA.read(value, AT);
    const provider = own(value, 'provider') as string | undefined;
    return { token: value.token as string, ...(provider !== undefined ? { provider } : {}), ...addressOf(value) };
  }
  PAYMENT_DATA.read(value, AT);
  const instrument = own(value, 'instrument') as { type: string; credential: { type: string; token: string } } | undefined;
  if (!instrument)
    throw invalid('missing', 'payment_data needs instrument: { type, credential: { type, token } } (or the 2025-09-29 token)', `${AT}.instrument`);
  const handler = handlerFor(handlers, own(value, 'handler_id') as string | undefined);
  if (!handler.instrumentTypes.includes(instrument.type)) {
    throw invalid('invalid', `The payment handler ${handler.id} takes instrument types: ${handler.instrumentTypes.join(', ')}`, `${AT}.instrument.type`);
  }
  if (!handler.credentialTypes.includes(instrument.credential.type)) {
    throw invalid(
      'invalid',
      `The payment handler ${handler.id} takes credential types: ${handler.credentialTypes.join(', ')}`,
      `${AT}.instrument.credential.type`,
    );
  }
  return {
    handler_id: handler.id,
    instrument: { type: instrument.type, credential: { type: instrument.credential.type, token: instrument.credential.token } },
    ...addressOf(value),
  };
}

/**
 * ACP `AuthenticationResult` outcomes that say the issuer did not authenticate the buyer. This platform
 * never asks for 3-D Secure (no session is ever `authentication_required`), so an authentication that
 * succeeded, or could not be run, changes nothing; one that failed is taken at its word.
 */
const NOT_AUTHENTICATED: ReadonlySet<string> = new Set(['denied', 'rejected', 'canceled', 'abandoned']);

/**
 * The decline a complete answers, charging nothing, when its (checked) `authentication_result` says the
 * buyer was not authenticated; undefined otherwise.
 */
export function authenticationDecline(body: Record<string, unknown>): CheckoutMessage | undefined {
  const result = own(body, 'authentication_result');
  const outcome = isRecord(result) ? own(result, 'outcome') : undefined;
  if (typeof outcome !== 'string' || !NOT_AUTHENTICATED.has(outcome)) return undefined;
  return {
    type: 'error',
    code: 'payment_declined',
    param: '$.authentication_result',
    content: `The card issuer did not authenticate the buyer (3-D Secure outcome: ${outcome}); nothing was charged`,
  };
}
