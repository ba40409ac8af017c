/** The Conversations API's part of area B's OpenAPI entries (chat/chat-routes.ts), joined in chat-operations.ts. */
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import { CONVERSATION_REQUESTS as R } from './conversation-api-requests';
import * as s from './conversation-api-schemas';

const READ_ERRORS = [400, 401, 403, 404, 429, 500, 503];
const WRITE_ERRORS = [400, 401, 403, 404, 409, 413, 429, 500, 503];
const TAG = 'Chat';

export const CONVERSATION_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  conversationsCreate: {
    tag: TAG,
    summary: 'Create a conversation',
    description:
      "A new chat session of the key's app (source `API`, as a first chat turn's), holding `items` (up to 20) as its messages, with `metadata` that is kept with it and never exported.",
    request: R.conversationsCreate,
    ok: { status: 200, description: 'The conversation', content: json(s.conversation) },
    errors: [400, 401, 403, 404, 413, 429, 500, 503],
  },
  conversationGet: {
    tag: TAG,
    summary: 'Get a conversation',
    description: "A conversation of the key's app; any other id is 404 `Conversation not found`.",
    request: R.conversationGet,
    ok: { status: 200, description: 'The conversation', content: json(s.conversation) },
    errors: READ_ERRORS,
  },
  conversationUpdate: {
    tag: TAG,
    summary: "Update a conversation's metadata",
    description: 'Replaces the metadata.',
    request: R.conversationUpdate,
    ok: { status: 200, description: 'The conversation', content: json(s.conversation) },
    errors: [400, 401, 403, 404, 413, 429, 500, 503],
  },
  conversationDelete: {
    tag: TAG,
    summary: 'Delete a conversation',
    description: 'Deletes its chat session as the console does: the export lists a session tombstone with cause `consumer_deleted`.',
    request: R.conversationDelete,
    ok: { status: 200, description: 'The deletion', content: json(s.conversationDeleted) },
    errors: READ_ERRORS,
  },
  conversationItemsList: {
    tag: TAG,
    summary: "List a conversation's items",
    description: 'The session’s messages as Responses items, newest first unless `order=asc`; `after` an item id, `limit` 1 to 100 (default 20).',
    request: R.conversationItemsList,
    ok: { status: 200, description: 'A page of items', content: json(s.conversationItemList) },
    errors: READ_ERRORS,
  },
  conversationItemsCreate: {
    tag: TAG,
    summary: 'Add items to a conversation',
    description:
      'Appends up to 20 items as one turn of the session (one at a time per session: 409 with Retry-After while a turn runs). Calls no model and bills nothing.',
    request: R.conversationItemsCreate,
    ok: { status: 200, description: 'The items added', content: json(s.conversationItemList) },
    errors: WRITE_ERRORS,
  },
  conversationItemGet: {
    tag: TAG,
    summary: 'Get an item of a conversation',
    description: 'One item by its id (`msg_…`, `fc_…_<n>` or `fco_…`); an id of no item of this conversation is 404 `Item not found`.',
    request: R.conversationItemGet,
    ok: { status: 200, description: 'The item', content: json(s.conversationItem) },
    errors: READ_ERRORS,
  },
  conversationItemDelete: {
    tag: TAG,
    summary: 'Delete an item of a conversation',
    description:
      "Removes the item from the session's transcript (a function call from its assistant message; the message when nothing of it is left); the session's `last_activity_at` moves so an export sync reads the transcript again.",
    request: R.conversationItemDelete,
    ok: { status: 200, description: 'The conversation', content: json(s.conversation) },
    errors: [400, 401, 403, 404, 409, 429, 500, 503],
  },
};
