/**
 * The query of a page of conversation items (`after`, `limit`, `order`), shared by the conversation's
 * items and a stored response's input items. A module apart so that the stored-response routes read it
 * without the conversation API's body rules.
 */
import { badRequest } from '../../kernel/domain/errors';
import { param, textParam } from '../../kernel/http/request-declaration';

const MAX_PAGE = 100;

export const ITEM_PAGE_QUERY = {
  after: textParam({ description: 'The id of the item this page starts after' }),
  limit: param({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 20 }, (raw) => {
    const n = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(n >= 1 && n <= MAX_PAGE)) throw badRequest(`limit must be an integer from 1 to ${MAX_PAGE}`);
    return n;
  }),
  order: param({ enum: ['asc', 'desc'], default: 'desc' }, (raw) => {
    if (raw !== 'asc' && raw !== 'desc') throw badRequest('order must be asc or desc');
    return raw;
  }),
};
