/** The Conversations API's answers for the OpenAPI document (OpenAI's shapes; chat/http/conversation-presenters.ts writes them). */
import * as z from 'zod';

export const conversation = z
  .object({
    id: z.string().meta({ description: 'conv_…: the conversation, a chat session of the key’s app (its UUID as 32 hex digits)' }),
    object: z.literal('conversation'),
    created_at: z.int().meta({ description: 'Unix seconds: the session’s start' }),
    metadata: z.record(z.string(), z.string()),
  })
  .meta({ title: 'Conversation' });

const textPart = z.union([
  z.object({ type: z.literal('input_text'), text: z.string() }),
  z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()), logprobs: z.array(z.unknown()) }),
]);
export const conversationItem = z
  .union([
    z.object({
      type: z.literal('message'),
      id: z.string().meta({ description: 'msg_…: names the session and the message' }),
      status: z.literal('completed'),
      role: z.enum(['user', 'system', 'assistant']),
      content: z.array(textPart),
    }),
    z.object({
      type: z.literal('function_call'),
      id: z.string().meta({ description: 'fc_…_<n>: the n-th function call of an assistant message' }),
      status: z.literal('completed'),
      call_id: z.string(),
      name: z.string(),
      arguments: z.string(),
    }),
    z.object({
      type: z.literal('function_call_output'),
      id: z.string().meta({ description: 'fco_…: a tool result message' }),
      status: z.literal('completed'),
      call_id: z.string(),
      output: z.string(),
    }),
  ])
  .meta({ title: 'ConversationItem' });

export const conversationItemList = z
  .object({
    object: z.literal('list'),
    data: z.array(conversationItem),
    first_id: z.nullable(z.string()),
    last_id: z.nullable(z.string()),
    has_more: z.boolean(),
  })
  .meta({ title: 'ConversationItemList' });

export const conversationDeleted = z
  .object({ id: z.string(), object: z.literal('conversation.deleted'), deleted: z.literal(true) })
  .meta({ title: 'ConversationDeleted' });
