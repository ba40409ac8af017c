/**
 * Every port of the platform in one type: what the local process builds once and hands to every
 * route, worker and job. A Lambda's wiring builds only the ports its handlers pick, so its bundle
 * carries only those adapters; each area's use cases pick from that area's own deps type.
 */
import type { AcpDeps } from '../acp/app/acp-ports';
import type { OrderEventDeliveryPorts } from '../acp/acp-wiring';
import type { ChatDeps, ConversationApiPorts, UrlFetcher } from '../chat/app/chat-ports';
import type { ConversationDeps } from '../conversations/app/conversation-ports';
import type { UsageRollupPorts } from '../conversations/app/usage-rollup-ports';
import type { ExportDeps, ExportJobListPorts, ExportJobPorts } from '../export/app/export-ports';
import type { ReleaseNotesDeps } from '../release-notes/app/release-notes-ports';

export type Deps = ConversationDeps &
  UsageRollupPorts &
  ChatDeps &
  ConversationApiPorts &
  ExportDeps &
  ExportJobPorts &
  ExportJobListPorts &
  AcpDeps &
  ReleaseNotesDeps &
  OrderEventDeliveryPorts & { readonly urls: UrlFetcher };
