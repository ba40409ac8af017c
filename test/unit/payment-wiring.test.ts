/**
 * Which payment handler a function gets: the Lambda wiring is always Stripe (the test handler, which
 * accepts `spt_test_ok`, exists only where the local process passes it), and the API key is read from
 * the stage's secret on the first charge, once (exact GetSecretValue input, through a mocked client).
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { secretReader } from '../../functions/acp/adapters/secrets-manager-secret';
import { STRIPE_HANDLER_ID } from '../../functions/acp/adapters/stripe-payment-provider';
import { ENV, type EnvVars } from '../../functions/kernel/env';
import { buildPaymentProvider } from '../../functions/acp/acp-wiring';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:platform-dev/stripe-api-key-AbCdEf';
const env = (extra: Partial<EnvVars> = {}) => ({ [ENV.stage]: 'dev', [ENV.tableName]: 't', ...extra }) as unknown as EnvVars;
const paymentData = { token: 'spt_test_ok' };

describe('payment wiring', () => {
  const sm = mockClient(SecretsManagerClient);
  afterEach(() => sm.reset());

  it('is Stripe in every Lambda: the test handler and its test tokens are never wired there', async () => {
    for (const e of [env(), env({ [ENV.paymentSecretArn]: SECRET_ARN })]) {
      const gateway = buildPaymentProvider({ env: e });
      expect(gateway.handlers().map((h) => h.id)).toEqual([STRIPE_HANDLER_ID]);
    }
    // Without the grant a charge cannot happen: an unknown outcome, left to the recovery job.
    await expect(buildPaymentProvider({ env: env() }).charge({ sessionId: 's', idempotencyKey: 'k', amount: 1, currency: 'usd', paymentData })).rejects.toThrow(
      /payments:charge/,
    );
  });

  it('reads the key from the stage secret with exactly one GetSecretValue', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: 'not-configured' });
    const gateway = buildPaymentProvider({ env: env({ [ENV.paymentSecretArn]: SECRET_ARN }) });
    expect(sm.calls()).toHaveLength(0);
    const charge = () => gateway.charge({ sessionId: 's', idempotencyKey: 'k', amount: 1, currency: 'usd', paymentData });
    expect(await charge()).toEqual({ status: 'failed', message: 'no Stripe API key is configured for this stage' });
    expect(await charge()).toMatchObject({ status: 'failed' });
    expect(sm.commandCalls(GetSecretValueCommand).map((c) => c.args[0].input)).toEqual([{ SecretId: SECRET_ARN }]);
  });

  it('refuses a secret without a string value', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1]) });
    await expect(secretReader(SECRET_ARN, new SecretsManagerClient({ region: 'eu-west-1' }))()).rejects.toThrow(/no string value/);
  });
});
