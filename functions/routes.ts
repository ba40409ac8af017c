/**
 * The one route table, joined on top from each area's own table (`functions/<area>/<area>-routes.ts`,
 * keyed by route id). The API stack builds an API Gateway method and a function per entry; the local
 * server serves the same entries; the API reference documents the public ones. A path is written in its
 * area's table and nowhere else; nothing below the composition imports this file (a handler hands the
 * kit its own entry of its area's table).
 * Synth loads this file: the area tables it joins import only types and leaf modules.
 */
import { EXPORT_ROUTES } from './export/export-routes';
import { CHAT_ROUTES } from './chat/chat-routes';
import { ACP_ROUTES } from './acp/acp-routes';
import { ACP_CONSOLE_ROUTES } from './acp/acp-console-routes';
import { RELEASE_NOTES_ROUTES } from './release-notes/release-notes-routes';
import { TENANCY_ROUTES } from './tenancy/tenancy-routes';
import { CONSOLE_ROUTES } from './console/console-routes';
import { CONVERSATION_ROUTES } from './conversations/conversation-routes';
import { JOB_ROUTES } from './jobs/job-routes';
import { OPENAPI_ROUTES } from './openapi/openapi-routes';
import type { RouteDef } from './kernel/route-vocabulary';

export const ROUTES: readonly RouteDef[] = [
  EXPORT_ROUTES,
  CHAT_ROUTES,
  ACP_ROUTES,
  ACP_CONSOLE_ROUTES,
  RELEASE_NOTES_ROUTES,
  TENANCY_ROUTES,
  CONSOLE_ROUTES,
  CONVERSATION_ROUTES,
  JOB_ROUTES,
  OPENAPI_ROUTES,
].flatMap((table) => Object.values<RouteDef>(table));
