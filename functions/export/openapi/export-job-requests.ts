/**
 * The requests of area A's bulk export (start a job, read it), keyed by route id: the handlers read
 * their input with them and the OpenAPI document shows them. Apart from the list routes' declarations,
 * so those functions carry none of this.
 */
import { badRequest } from '../../kernel/domain/errors';
import { uuidPathId, type BodyRule } from '../../kernel/http/request-declaration';
import { EXPORT_LISTS } from '../domain/export-job';

/** A job's request: an empty body asks for every list the key may read (the use case checks `lists`). */
const exportJobBody: BodyRule<Record<string, unknown>> = {
  contentType: 'application/json',
  schema: {
    type: 'object',
    properties: {
      lists: {
        minItems: 1,
        type: 'array',
        items: { type: 'string', enum: [...EXPORT_LISTS] },
        description: 'Default: every list the key may read; each list needs the scope of its own route',
      },
    },
    title: 'ExportRequest',
  },
  read: (req) => {
    const text = req.textBody();
    if (text.trim() === '') return {};
    if (!/^application\/json\s*(;|$)/i.test(req.header('content-type') ?? '')) throw badRequest('Content-Type must be application/json');
    return req.jsonBody();
  },
};

export const EXPORT_JOB_REQUESTS = {
  orgExportCreate: { body: exportJobBody },
  orgExportGet: { path: { exportId: uuidPathId('exportId') } },
};
