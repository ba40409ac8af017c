import { buildCoreDeps, onFirstUse } from '../wiring/core-wiring';
import { createKeyAuthorizer, type AuthorizerDeps, type KeyAuthorizer } from './key-authorizer';

/** The REQUEST authorizer of the acp API: resolves `acpKey` bearer keys (functions/kernel/http/api-gateway-contract.ts). */
export const createHandler = (deps: AuthorizerDeps): KeyAuthorizer => createKeyAuthorizer(deps, 'acpKey', 'acp');

const production = onFirstUse(buildCoreDeps);
let built: KeyAuthorizer | undefined;
export const handler: KeyAuthorizer = (event) => (built ??= createHandler(production()))(event);
