/**
 * What the OpenAPI document says of each public route beyond the route table, joined from each area's
 * fragment (functions/<area>/openapi/<area>-operations.ts) the way functions/routes.ts joins the route
 * tables. functions/openapi/document.ts turns each entry into an operation, in route-table order.
 */
import { ACP_OPERATIONS } from '../acp/openapi/acp-operations';
import { CHAT_OPERATIONS } from '../chat/openapi/chat-operations';
import { EXPORT_OPERATIONS } from '../export/openapi/export-operations';
import type { OperationDoc } from '../kernel/openapi-kit';
import { RELEASE_NOTES_OPERATIONS } from '../release-notes/openapi/release-notes-operations';

/** Every public route by id. */
export const OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  ...EXPORT_OPERATIONS,
  ...CHAT_OPERATIONS,
  ...ACP_OPERATIONS,
  ...RELEASE_NOTES_OPERATIONS,
};
