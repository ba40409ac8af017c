/**
 * The requests of the stored-response routes (`GET`/`DELETE /api/v1/responses/{response_id}` and its
 * input items), one declaration per operation. The query is read strictly: a name the operation does
 * not declare is a 400, and only `include[]` (how the openai package sends a list) may repeat.
 */
import { badRequest } from '../../kernel/domain/errors';
import { param, textParam, type QueryPolicy } from '../../kernel/http/request-declaration';
import { INCLUDABLE } from '../domain/responses-options';
import { ITEM_PAGE_QUERY as ITEM_PAGE } from './item-page-requests';

const RESPONSE_ID = { response_id: textParam({ description: 'A response id (`resp_…`) of the key’s app' }) };

const flag = (name: string) =>
  param({ enum: ['true', 'false'] }, (raw) => {
    if (raw !== 'true' && raw !== 'false') throw badRequest(`${name} must be true or false`);
    return raw === 'true';
  });

const includeList = (name: string) =>
  param(
    { description: `Accepted: ${INCLUDABLE.join(', ')}` },
    (raw) => {
      const values = raw.split(',').filter((v) => v !== '');
      const unknown = values.find((v) => !INCLUDABLE.includes(v));
      if (unknown !== undefined) throw badRequest(`${name}: ${unknown.slice(0, 64)} is not one of ${INCLUDABLE.join(', ')}`);
      return values;
    },
    { list: true },
  );

/** A name given twice is a 400, except a list the declaration marks as one. */
export const responsesQuery =
  (lists: readonly string[]): QueryPolicy =>
  (req, declared) => {
    for (const [name, values] of Object.entries(req.event.multiValueQueryStringParameters ?? {})) {
      if (!declared.includes(name)) throw badRequest(`Unknown query parameter: ${name.slice(0, 64)}`);
      if ((values?.length ?? 0) > 1 && !lists.includes(name)) throw badRequest(`Query parameter ${name} is given more than once`);
    }
    for (const name of Object.keys(req.query)) if (!declared.includes(name)) throw badRequest(`Unknown query parameter: ${name.slice(0, 64)}`);
    return {};
  };

export const RESPONSE_REQUESTS = {
  responsesGet: {
    path: RESPONSE_ID,
    query: {
      'include[]': includeList('include[]'),
      include: includeList('include'),
      stream: flag('stream'),
      starting_after: param({ type: 'integer', minimum: -1, description: 'With stream=true: the events after this sequence number' }, (raw) => {
        if (!/^(-1|0|[1-9]\d{0,8})$/.test(raw)) throw badRequest('starting_after must be a sequence number (an integer from -1)');
        return Number(raw);
      }),
      include_obfuscation: flag('include_obfuscation'),
    },
  },
  responsesDelete: { path: RESPONSE_ID },
  responsesCancel: { path: RESPONSE_ID },
  responsesInputItems: {
    path: RESPONSE_ID,
    // The cursor of a conversation's items: after, limit (1 to 100, 20), order (desc unless asc).
    query: { ...ITEM_PAGE, 'include[]': includeList('include[]'), include: includeList('include') },
  },
};
