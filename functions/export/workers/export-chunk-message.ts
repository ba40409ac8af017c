/**
 * The message of the exports queue, one chunk of one list of a bulk snapshot export, as its consumer
 * parses it (export-worker.handler.ts): a body that is not one is poison.
 */
import * as z from 'zod/mini';
import type { ExportChunkMessage } from '../domain/export-job';
import { jsonBody } from '../../kernel/workers/queue-kit';

const chunkMessage = z.object({ jobId: z.uuid(), list: z.enum(['apps', 'sessions', 'usage', 'tombstones']), chunk: z.int().check(z.minimum(0)) });

/** Typed against the domain's message, so the schema cannot drift from what the senders write. */
export const parseExportChunkMessage: (body: string) => ExportChunkMessage = jsonBody(chunkMessage);
