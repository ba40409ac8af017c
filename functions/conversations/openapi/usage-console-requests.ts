/** The request of the console's usage view: a range of UTC days, and optional app and model filters; every parameter declared. */
import { badRequest } from '../../kernel/domain/errors';
import { param, uuidPathId } from '../../kernel/http/request-declaration';
import { isDate } from '../domain/usage-buckets';

const date = (name: string, description: string) =>
  param({ type: 'string', format: 'date', description }, (raw) => {
    if (!isDate(raw)) throw badRequest(`Invalid ${name}: must be a date YYYY-MM-DD`);
    return raw;
  });

export const USAGE_CONSOLE_REQUESTS = {
  consoleUsageGet: {
    path: { orgId: uuidPathId('orgId') },
    query: {
      from: date('from', 'First UTC day, included (default: 29 days before `to`)'),
      to: date('to', 'Last UTC day, included (default: today); at most 400 days after `from`'),
      appId: param({ type: 'string', format: 'uuid', description: 'Only this app' }, (raw) => {
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw)) throw badRequest('Invalid appId: must be a UUID');
        return raw;
      }),
      model: param({ type: 'string', maxLength: 200, description: 'Only this model' }, (raw) => {
        if (raw.length < 1 || raw.length > 200) throw badRequest('Invalid model: 1 to 200 characters');
        return raw;
      }),
    },
  },
};
