/**
 * Area B's wire shapes for the OpenAPI document: the chat-completion request, answer and stream, the
 * file upload, and the area's own error body (document.ts answers chat routes' errors in it).
 */
import * as z from 'zod';
import { uuid } from '../../platform/openapi/openapi-kit';

export const chatError = z
  .union([z.object({ error: z.string() }), z.object({ error: z.string(), message: z.string() })])
  .meta({ title: 'ChatError', description: 'Area B: `{ error: message }`, or `{ error: CODE, message }` for the 422 image codes' });

const chatMessage = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string() });
export const chatRequest = z
  .strictObject({
    model: z.string().meta({ description: "The app's appNameId (appname-<number>)" }),
    messages: z.array(chatMessage).min(1),
    stream: z.optional(z.boolean()),
    stream_options: z.optional(z.strictObject({ include_usage: z.optional(z.boolean()) })),
    chatSessionId: z.optional(uuid),
    variables: z.optional(z.record(z.string().max(64), z.string().max(2048)).meta({ description: 'Up to 20 session variables' })),
    files: z.optional(z.array(z.object({ fileId: uuid, fileName: z.string() })).max(100)),
    temperature: z.optional(z.number().min(0).max(2)),
    top_p: z.optional(z.number().min(0).max(1)),
    max_tokens: z.optional(z.int().min(1)),
    max_completion_tokens: z.optional(z.int().min(1)),
    stop: z.optional(z.union([z.string(), z.array(z.string())])),
  })
  .meta({ title: 'ChatCompletionRequest' });
const usage = z.object({ prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() });
export const chatCompletion = z
  .object({
    chatSessionId: uuid,
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.int(),
    model: z.string(),
    choices: z.array(z.object({ index: z.int(), message: z.object({ role: z.string(), content: z.string() }), finish_reason: z.string() })),
    usage,
  })
  .meta({ title: 'ChatCompletion' });
export const chatStream = z.string().meta({
  title: 'ChatCompletionChunks',
  description: 'Server-Sent Events: `data: {chat.completion.chunk with chatSessionId}` events, then `data: [DONE]`',
});
export const uploadRequest = z.object({
  file: z.string().meta({ format: 'binary', description: 'One file: PNG, JPEG, GIF, WebP, PDF or DOCX, up to 20 MiB' }),
});
export const uploadedFile = z.object({ fileId: uuid, fileName: z.string(), mimeType: z.string(), size: z.int() }).meta({ title: 'UploadedFile' });
