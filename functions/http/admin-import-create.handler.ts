import * as z from 'zod';
import { importSessions, type ImportRecord } from '../app/import-sessions';
import { badRequest } from '../domain/errors';
import { httpRoute } from './kit';
import { lambdaHandler } from './lambda';
import { isoTimestamp, parseWith } from './validation';
import { adminProductionDeps, type AdminFunctionDeps } from '../wiring/admin-wiring';

/** Keeps one import call inside API Gateway's 29 s integration timeout; split larger files. */
const MAX_LINES = 200;

const line = z
  .object({
    session: z
      .object({
        id: z.uuid().optional(),
        title: z.string().max(500).default(''),
        source: z.string().min(1).max(64).default('APP'),
        externalId: z.string().max(512).nullable().default(null),
        queryParams: z.array(z.object({ name: z.string().max(256), value: z.string().max(2048) }).strict()).max(100).default([]),
        startedAt: isoTimestamp,
      })
      .strict(),
    consumer: z.object({ email: z.email().max(320).nullable().default(null) }).strict().nullable().default(null),
    messages: z
      .array(
        z
          .object({
            id: z.string().min(1).max(128).optional(),
            role: z.enum(['user', 'assistant', 'system']),
            content: z.string().max(100_000),
            createdAt: isoTimestamp,
            tools: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), component: z.string(), success: z.boolean() }).partial().strict()).optional(),
          })
          .strict(),
      )
      .max(2000)
      .default([]),
  })
  .strict();

/**
 * POST /admin/v1/apps/{appId}/imports: historical sessions as JSONL, one session with its messages per
 * line. Every line is validated before anything is written: one bad line rejects the import (400 naming it).
 */
export const createHandler = (deps: AdminFunctionDeps) =>
  httpRoute('adminImportCreate', deps, async (req) => {
    const lines = req.textBody().split('\n').map((l) => l.trim());
    const records: ImportRecord[] = [];
    lines.forEach((text, i) => {
      if (!text) return;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        throw badRequest(`Invalid line ${i + 1}: not JSON`);
      }
      const r = parseWithLine(i + 1, raw);
      records.push({
        session: { ...r.session, startedAtUs: r.session.startedAt },
        consumer: r.consumer,
        messages: r.messages.map((m) => ({ ...m, createdAtUs: m.createdAt })),
      });
    });
    if (records.length === 0) throw badRequest('Invalid body: expected JSONL with at least one session');
    if (records.length > MAX_LINES) throw badRequest(`Invalid body: at most ${MAX_LINES} sessions per import`);
    const result = await importSessions(deps, { appId: req.path.appId ?? '', records });
    return { status: 201, body: { data: { imported: result.sessionIds.length, sessionIds: result.sessionIds } } };
  });

function parseWithLine(n: number, raw: unknown) {
  try {
    return parseWith(line, raw);
  } catch (err) {
    throw badRequest(`Invalid line ${n}: ${(err as Error).message.replace(/^Invalid /, '')}`);
  }
}

export const handler = lambdaHandler(createHandler, adminProductionDeps);
