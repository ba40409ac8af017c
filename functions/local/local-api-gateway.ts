/**
 * The local stand-in for API Gateway's side of the keys: the key authorizers run in the server, in
 * front of the same routes as on AWS, and their answers are cached per `Authorization` value for the
 * same TTL. Revoking a key flushes the cache, as the admin API flushes API Gateway's on AWS. There are
 * no usage plans on a laptop: the in-function limits are the exact ones everywhere.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { KeyAuthorizer, KeyAuthorizerResult } from '../tenancy/authorizers/key-authorizer';
import { AUTHORIZER_CACHE_TTL_SECONDS, AUTHORIZER_HANDLER, authorizerEventFor, policyAllows, type KeyClass } from '../kernel/http/api-gateway-contract';
import type { ApiKeyRegistry } from '../tenancy/app/tenancy-ports';
import type { LocalDeps } from './local-wiring';
import type { GatewayVerdict, KeyCheck } from '../server/http-server';
import { importEntry } from './entry-modules';

export class LocalApiGateway implements ApiKeyRegistry, KeyCheck {
  private readonly cache = new Map<string, { readonly result: KeyAuthorizerResult; readonly until: number }>();
  private authorizers: Partial<Record<KeyClass, KeyAuthorizer>> = {};

  constructor(private readonly now: () => number = Date.now) {}

  /** Loads the authorizer modules with the platform's deps (the same modules the Lambdas run). */
  async load(deps: LocalDeps): Promise<void> {
    for (const keyClass of Object.keys(AUTHORIZER_HANDLER) as KeyClass[]) {
      const mod = await importEntry<{ createHandler: (d: LocalDeps) => KeyAuthorizer }>(AUTHORIZER_HANDLER[keyClass]);
      this.authorizers[keyClass] = mod.createHandler(deps);
    }
  }

  /** The authorizer's verdict on `authorization` (present and non-empty), from the cache while fresh. */
  async authorize(keyClass: KeyClass, authorization: string, event: APIGatewayProxyEvent): Promise<GatewayVerdict> {
    const cacheKey = `${keyClass}\n${authorization}`;
    const hit = this.cache.get(cacheKey);
    let result = hit && hit.until > this.now() ? hit.result : undefined;
    if (!result) {
      const authorizer = this.authorizers[keyClass];
      if (!authorizer) throw new Error(`no ${keyClass} authorizer loaded`);
      result = await authorizer(authorizerEventFor(event, `arn:aws:execute-api:local:000000000000:local/local/${event.httpMethod}${event.resource}`));
      this.cache.set(cacheKey, { result, until: this.now() + AUTHORIZER_CACHE_TTL_SECONDS * 1000 });
    }
    if (!policyAllows(result)) return { allowed: false, context: result.context ?? {} };
    const context = Object.fromEntries(Object.entries(result.context ?? {}).map(([k, v]) => [k, String(v)]));
    return { allowed: true, context, principalId: result.principalId };
  }

  async register(): Promise<void> {}

  async unregister(): Promise<void> {
    this.cache.clear();
  }

  async forgetAuthorizations(): Promise<void> {
    this.cache.clear();
  }
}
