/**
 * The requests of area C's public routes (catalog, discovery, Agent Card), one declaration per
 * operation (keyed by route id), apart from checkout's so their bundles carry no checkout checks.
 */
import { textParam } from '../../kernel/http/request-declaration';

export const APP_PATH = { appId: textParam({}) };

const agentCard = {
  path: APP_PATH,
  headers: {
    'If-None-Match': textParam({ description: 'ETags of a copy the client holds, or `*`: a match is a 304 (RFC 9110 §13.1.2)' }, { list: true }),
  },
};

export const ACP_DISCOVERY_REQUESTS = {
  acpProductsList: { path: APP_PATH },
  acpAgentCard: agentCard,
  acpAgentCardV3: agentCard,
  acpDiscovery: { path: APP_PATH },
};
