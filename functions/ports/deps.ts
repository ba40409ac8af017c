/**
 * Every port of the platform in one type. Use cases take a narrow `Pick` of it; a function's wiring
 * builds only the ports its handlers pick (functions/wiring/), so its bundle carries only those adapters.
 */
import type { AcpPorts, CheckoutPorts } from './acp';
import type { ChatPorts } from './chat';
import type { ConversationPorts } from './conversations';
import type { ExportPorts } from './export';
import type { FilePorts } from './files';
import type { AdminPorts, PlatformPorts } from './platform';
import type { ReleaseNotesPorts, WebhookDeliveryPorts } from './release-notes';

export type Deps = PlatformPorts &
  AcpPorts &
  CheckoutPorts &
  AdminPorts &
  ConversationPorts &
  ExportPorts &
  ChatPorts &
  FilePorts &
  ReleaseNotesPorts &
  WebhookDeliveryPorts;
