/** The webhooks worker: the release-notes ports plus the pinned, SSRF-checked HTTP client that delivers. */
import { buildWebhookSender } from '../../platform/wiring/outbound-webhook-wiring';
import type { WebhookDeliveryPorts } from '../ports/release-notes-ports';
import { onFirstUse } from '../../platform/wiring/core-wiring';
import { buildReleaseNotesDeps, type ReleaseNotesFunctionDeps } from './release-notes-wiring';
import type { ReleaseNotesWiringOptions } from './release-notes-wiring';

export type WebhookWorkerDeps = ReleaseNotesFunctionDeps & WebhookDeliveryPorts;

export function buildWebhookDeliveryPorts(opts: ReleaseNotesWiringOptions): WebhookDeliveryPorts {
  return { webhookSender: buildWebhookSender(opts) };
}

export function buildWebhookWorkerDeps(opts: ReleaseNotesWiringOptions): WebhookWorkerDeps {
  return { ...buildReleaseNotesDeps(opts), ...buildWebhookDeliveryPorts(opts) };
}

export const webhookWorkerProductionDeps = onFirstUse(buildWebhookWorkerDeps);
