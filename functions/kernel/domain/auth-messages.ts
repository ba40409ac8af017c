/**
 * What a client is told when its key is refused. The functions and API Gateway's own answers
 * (functions/kernel/http/api-gateway-contract.ts) use the same words. A leaf module, loadable by the CDK app.
 */

/** The bearer-key classes of the public APIs (org export, chat, ACP checkout). */
export type KeyClass = 'orgKey' | 'chatKey' | 'acpKey';

export const MISSING_KEY_MESSAGE: Record<KeyClass, string> = {
  orgKey: 'Missing API key: send Authorization: Bearer <ORG_API_KEY>',
  chatKey: 'Missing API key: send Authorization: Bearer <API_KEY>',
  acpKey: 'Missing API key: send Authorization: Bearer <ACP_API_KEY>',
};

export const INVALID_KEY_MESSAGE = 'Invalid API key';
export const EXPIRED_KEY_MESSAGE = 'API key has expired';
export const PAID_PLAN_MESSAGE = 'The Chat Completions API is only available on paid plans; upgrade the organization to a paid plan';
