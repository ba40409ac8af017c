/** Reads one secret string from AWS Secrets Manager (the payment provider's API key). */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

export function secretReader(secretId: string, client: SecretsManagerClient = new SecretsManagerClient({ maxAttempts: 3 })): () => Promise<string> {
  return async () => {
    const res = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (!res.SecretString) throw new Error(`secret ${secretId} has no string value`);
    return res.SecretString.trim();
  };
}
