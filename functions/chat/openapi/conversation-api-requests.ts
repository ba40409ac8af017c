/**
 * The Conversations API's requests (OpenAI's shapes), one declaration per operation keyed by route id.
 * Path ids are read as sent: the use case judges them, and an id of no conversation of the key's app is
 * its one 404. Bodies are JSON within the chat request's limit (413 past it); an empty body of a create
 * is an empty conversation, as the openai package sends it.
 */
import { bodyTooLargeMessage, MAX_CHAT_REQUEST_BYTES } from '../../kernel/domain/body-limits';
import { badRequest, DomainError } from '../../kernel/domain/errors';
import type { JsonSchema } from '../../kernel/domain/json-schema';
import { utf8Length } from '../../kernel/domain/utf8';
import { textParam, type BodyRule } from '../../kernel/http/request-declaration';
import { MAX_ITEMS_PER_REQUEST, parseConversationItems } from '../domain/conversation-items';
import type { ChatMessageInput } from '../domain/chat-request';
import { onlyKeys } from '../domain/request-fields';
import { INPUT_ITEM } from '../domain/responses-input';
import { TURN_FIELDS } from '../domain/turn-fields';
import { ITEM_PAGE_QUERY } from './item-page-requests';

const conversationId = textParam({ description: 'conv_…: a conversation of the key’s app (its chat session)' });
const itemId = textParam({ description: 'msg_…, fc_…_<n> or fco_…: an item of the conversation' });
const include = textParam({ description: 'Accepted and ignored: items carry everything they have' });

const ITEMS: JsonSchema = {
  type: 'array',
  maxItems: MAX_ITEMS_PER_REQUEST,
  items: INPUT_ITEM,
  description: `At most ${MAX_ITEMS_PER_REQUEST} messages, function calls and function call outputs (item_reference is refused)`,
};
const METADATA_SCHEMA: JsonSchema = { ...TURN_FIELDS.metadata.schema, description: 'Up to 16 pairs, kept with the conversation' };
const readMetadata = (value: unknown, body: Record<string, unknown>) => TURN_FIELDS.metadata.read({ value, body });

/** A JSON object body within MAX_CHAT_REQUEST_BYTES; an empty one reads as `{}`. */
function conversationBody<T>(schema: JsonSchema, read: (body: Record<string, unknown>) => T, required: boolean): BodyRule<T> {
  return {
    contentType: 'application/json',
    schema,
    ...(required ? { required: true } : {}),
    read: (req) => {
      const text = req.textBody();
      if (utf8Length(text) > MAX_CHAT_REQUEST_BYTES) throw new DomainError('payload_too_large', bodyTooLargeMessage(MAX_CHAT_REQUEST_BYTES));
      return read(text.trim() === '' ? {} : req.jsonBody());
    },
  };
}

const objectOf = (title: string, properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  title,
  properties,
  required,
  additionalProperties: false,
});

export interface ConversationCreateBody {
  readonly items: readonly ChatMessageInput[];
  readonly metadata: Readonly<Record<string, string>>;
}

const path = { conversation_id: conversationId };
const itemPath = { conversation_id: conversationId, item_id: itemId };

export const CONVERSATION_REQUESTS = {
  conversationsCreate: {
    body: conversationBody(
      objectOf('ConversationCreateRequest', { items: ITEMS, metadata: METADATA_SCHEMA }),
      (b): ConversationCreateBody => {
        onlyKeys(b, ['items', 'metadata'], 'body');
        return { items: parseConversationItems(b.items, false), metadata: readMetadata(b.metadata, b) };
      },
      false,
    ),
  },
  conversationGet: { path },
  conversationUpdate: {
    path,
    body: conversationBody(
      objectOf('ConversationUpdateRequest', { metadata: METADATA_SCHEMA }, ['metadata']),
      (b) => {
        onlyKeys(b, ['metadata'], 'body');
        if (b.metadata === undefined) throw badRequest('metadata is required');
        return { metadata: readMetadata(b.metadata, b) };
      },
      true,
    ),
  },
  conversationDelete: { path },
  conversationItemsList: {
    path,
    query: { ...ITEM_PAGE_QUERY, include },
  },
  conversationItemsCreate: {
    path,
    query: { include },
    body: conversationBody(
      objectOf('ConversationItemsCreateRequest', { items: { ...ITEMS, minItems: 1 } }, ['items']),
      (b) => {
        onlyKeys(b, ['items'], 'body');
        return { items: parseConversationItems(b.items, true) };
      },
      true,
    ),
  },
  conversationItemGet: { path: itemPath, query: { include } },
  conversationItemDelete: { path: itemPath },
};
