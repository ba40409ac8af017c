/** The models routes' deps: the admission's stores only, since the key's app is all they show. */
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../../tenancy/wiring/core-wiring';

export type ModelFunctionDeps = CoreDeps;

export const modelProductionDeps = /* @__PURE__ */ onFirstUse((opts): ModelFunctionDeps => buildCoreDeps(opts));
