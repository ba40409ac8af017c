/**
 * The one shape of the key authorizers (API Gateway REQUEST authorizers, and the local server's
 * stand-in for them): resolve the `Authorization` header to a key grant, allow the whole API with the
 * grant as context and the key's id as its usage-plan key, or deny with the area's error code and
 * message (rendered by the ACCESS_DENIED gateway response, functions/kernel/http/api-gateway-contract.ts). The answer is cached
 * per header value, so it never depends on the method or path.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { resolveApiKey } from '../app/admit-request';
import type { KeyClass } from '../../kernel/domain/auth-messages';
import { shownCode, type ErrorArea } from '../../kernel/domain/error-bodies';
import { DomainError } from '../../kernel/domain/errors';
import { headerOf } from '../../kernel/domain/http-headers';
import { grantToContext } from '../domain/key-grant';
import { DENY_CONTEXT } from '../../kernel/http/api-gateway-contract';
import type { CoreDeps } from '../wiring/core-wiring';

export interface KeyAuthorizerResult extends APIGatewayAuthorizerResult {
  /** The API Gateway API key (value) whose usage plan throttles this caller. */
  readonly usageIdentifierKey?: string;
}

export type KeyAuthorizer = (event: APIGatewayRequestAuthorizerEvent) => Promise<KeyAuthorizerResult>;

export type AuthorizerDeps = Pick<CoreDeps, 'credentials' | 'clock' | 'logger'>;

/** `arn:…:<apiId>/<stage>/<verb>/<path>` -> every method and path of that API stage. */
function wholeApi(methodArn: string): string {
  const [prefix, stage] = methodArn.split('/');
  return `${prefix}/${stage}/*`;
}

function policy(effect: 'Allow' | 'Deny', methodArn: string): APIGatewayAuthorizerResult['policyDocument'] {
  return { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: wholeApi(methodArn) }] };
}

export function createKeyAuthorizer(deps: AuthorizerDeps, keyClass: KeyClass, area: ErrorArea): KeyAuthorizer {
  return async (event) => {
    try {
      const grant = await resolveApiKey(deps, { keyClass, authorization: headerOf(event.headers, 'authorization') });
      return { principalId: grant.keyId, policyDocument: policy('Allow', event.methodArn), context: grantToContext(grant), usageIdentifierKey: grant.keyId };
    } catch (err) {
      // Anything but a verdict on the key (the table is unreachable, say) must not be cached as a Deny:
      // it propagates, and the gateway answers AUTHORIZER_FAILURE (a 500 in the area's shape).
      if (!(err instanceof DomainError)) throw err;
      deps.logger.info('key refused', { keyClass, code: err.code });
      return {
        principalId: 'refused',
        policyDocument: policy('Deny', event.methodArn),
        context: { [DENY_CONTEXT.code]: shownCode(area, err.code), [DENY_CONTEXT.message]: err.message },
      };
    }
  };
}
