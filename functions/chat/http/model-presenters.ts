/**
 * A chat key's app as an OpenAI model object, the shape `GET /v1/models` clients read. The app's
 * `appNameId` is the `model` a turn sends. `owned_by` is the fixed `platform`: the chat API names no
 * org anywhere else, and a client only compares ids.
 */
import type { App } from '../../tenancy/domain/app';
import { microsToMs } from '../../kernel/domain/time';

export const MODEL_OWNER = 'platform';

export function modelView(app: App) {
  return { id: app.appNameId, object: 'model' as const, created: Math.floor(microsToMs(app.createdAtUs) / 1000), owned_by: MODEL_OWNER };
}
