/**
 * Area B's wire shapes for the OpenAPI document: the chat-completion answer and stream (its request
 * comes from the rules that read it, chat/domain/chat-request.ts), the
 * file upload, and the area's own error body (document.ts answers chat routes' errors in it).
 */
import * as z from 'zod';
import { uuid } from '../../platform/openapi/openapi-kit';

export const chatError = z
  .union([z.object({ error: z.string() }), z.object({ error: z.string(), message: z.string() })])
  .meta({ title: 'ChatError', description: 'Area B: `{ error: message }`, or `{ error: CODE, message }` for the 422 image codes' });

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
