/** The message of the responses queue, one background response to run, as its consumer parses it: a body that is not one is poison. */
import * as z from 'zod/mini';
import type { ResponseRunMessage } from '../app/chat-ports';
import { jsonBody } from '../../kernel/workers/queue-kit';

const runMessage = z.object({ sessionId: z.uuid(), answerId: z.uuid(), queuedAtUs: z.int().check(z.minimum(0)) });

/** Typed against the port's message, so the schema cannot drift from what the sender writes. */
export const parseResponseRunMessage: (body: string) => ResponseRunMessage = jsonBody(runMessage);
