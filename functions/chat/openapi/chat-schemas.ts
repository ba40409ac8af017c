/**
 * Area B's wire shapes for the OpenAPI document: the chat-completion answer and stream (its request
 * comes from the rules that read it, chat/domain/chat-request.ts), the
 * file upload, the key's app as an OpenAI model, and the area's own error body (document.ts answers chat routes' errors in it).
 */
import * as z from 'zod';
import { uuid } from '../../kernel/openapi-kit';

export const chatError = z
  .union([z.object({ error: z.string() }), z.object({ error: z.string(), message: z.string() })])
  .meta({ title: 'ChatError', description: 'Area B: `{ error: message }`, or `{ error: CODE, message }` for the 422 image codes' });

const usage = z.object({
  prompt_tokens: z.int().meta({ description: 'Every input token, those read from the prompt cache included' }),
  completion_tokens: z.int(),
  total_tokens: z.int(),
  prompt_tokens_details: z.object({ cached_tokens: z.int().meta({ description: 'Read from the model’s prompt cache, where it reports them' }) }),
  completion_tokens_details: z.object({ reasoning_tokens: z.int().meta({ description: 'Spent reasoning, where the model reports them' }) }),
});
const toolCall = z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) });
export const chatCompletion = z
  .object({
    chatSessionId: uuid,
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.int(),
        message: z.object({ role: z.string(), content: z.string(), tool_calls: z.optional(z.array(toolCall)) }),
        finish_reason: z.string().meta({ description: '`stop`, `length`, `tool_calls` (the client runs the calls) or `content_filter`' }),
      }),
    ),
    usage,
  })
  .meta({ title: 'ChatCompletion' });
export const chatStream = z.string().meta({
  title: 'ChatCompletionChunks',
  description: 'Server-Sent Events: `data: {chat.completion.chunk with chatSessionId}` events, then `data: [DONE]`',
});
export const model = z
  .object({
    id: z.string().meta({ description: "The app's `appNameId`: what chat turns send as `model`" }),
    object: z.literal('model'),
    created: z.int().meta({ description: "The app's creation time, Unix seconds" }),
    owned_by: z.literal('platform'),
  })
  .meta({ title: 'Model' });
export const modelList = z.object({ object: z.literal('list'), data: z.array(model) }).meta({ title: 'ModelList' });
export const uploadedFile = z.object({ fileId: uuid, fileName: z.string(), mimeType: z.string(), size: z.int() }).meta({ title: 'UploadedFile' });

const responseItem = z.union([
  z.object({
    type: z.literal('message'),
    id: z.string(),
    status: z.string(),
    role: z.literal('assistant'),
    content: z.array(z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()), logprobs: z.array(z.unknown()) })),
  }),
  z.object({ type: z.literal('function_call'), id: z.string(), status: z.string(), call_id: z.string(), name: z.string(), arguments: z.string() }),
]);
export const response = z
  .looseObject({
    id: z.string().meta({ description: 'resp_…: names the session; a later request continues it with previous_response_id' }),
    object: z.literal('response'),
    created_at: z.int(),
    status: z.enum(['completed', 'incomplete']),
    error: z.null(),
    incomplete_details: z.nullable(z.object({ reason: z.string() })),
    model: z.string(),
    output: z.array(responseItem),
    usage: z.object({
      input_tokens: z.int(),
      input_tokens_details: z.object({ cached_tokens: z.int() }),
      output_tokens: z.int(),
      output_tokens_details: z.object({ reasoning_tokens: z.int() }),
      total_tokens: z.int(),
    }),
    completed_at: z.nullable(z.int()).meta({ description: 'Unix seconds when the response completed; null unless its status is completed' }),
    temperature: z.number().meta({ description: "The request's temperature, else 1" }),
    top_p: z.number().meta({ description: "The request's top_p, else 1" }),
    presence_penalty: z.number().meta({ description: 'Always 0' }),
    frequency_penalty: z.number().meta({ description: 'Always 0' }),
    top_logprobs: z.int().meta({ description: "The request's top_logprobs, else 0: no log probabilities are returned" }),
    max_tool_calls: z.nullable(z.int()).meta({ description: "The request's max_tool_calls, else null" }),
    reasoning: z.object({
      effort: z.nullable(z.enum(['none', 'low', 'medium', 'high', 'xhigh'])).meta({ description: "The request's effort (minimal reads as low, max as xhigh)" }),
      summary: z.nullable(z.enum(['auto', 'concise', 'detailed'])),
    }),
    background: z.literal(false),
    service_tier: z.literal('default'),
    safety_identifier: z.nullable(z.string()).meta({ description: "The request's safety_identifier, else null" }),
    prompt_cache_key: z.nullable(z.string()).meta({ description: "The request's prompt_cache_key, else null" }),
    tools: z
      .array(
        z.object({
          type: z.literal('function'),
          name: z.string(),
          description: z.nullable(z.string()),
          parameters: z.nullable(z.looseObject({})),
          strict: z.boolean().meta({ description: "The request's strict, else false" }),
        }),
      )
      .meta({ description: "The function tools offered (a namespace's members included), every field present; mcp and hosted tools are not echoed" }),
    text: z
      .object({ format: z.looseObject({ type: z.enum(['text', 'json_object', 'json_schema']) }) })
      .meta({ description: 'The output format of the request; a json_schema format is echoed with its schema null' }),
    conversation: z.nullable(z.object({ id: z.string() })).meta({ description: 'The conversation the request continued, else null' }),
    chatSessionId: uuid,
  })
  .meta({ title: 'Response' });
export const responseStream = z.string().meta({
  title: 'ResponseEvents',
  description:
    'Server-Sent Events (`event:` and `data:` lines, each with sequence_number): response.created, response.in_progress, response.output_item.added, response.content_part.added, response.output_text.delta, response.output_text.done, response.content_part.done, response.function_call_arguments.delta/.done, response.output_item.done, then response.completed or response.incomplete; response.failed on a failure after the first byte',
});

export const responseDeleted = z.object({ id: z.string(), object: z.literal('response'), deleted: z.literal(true) });
