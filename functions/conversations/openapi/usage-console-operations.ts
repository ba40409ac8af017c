/** The console's usage view in its OpenAPI document. */
import * as z from 'zod';
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import { adminData } from '../../tenancy/openapi/admin-schemas';
import { CONSOLE_ERRORS } from '../../tenancy/openapi/tenancy-console-operations';
import { USAGE_CONSOLE_REQUESTS } from './usage-console-requests';

const totals = {
  calls: z.int(),
  inputTokens: z.int(),
  outputTokens: z.int(),
  cacheReadInputTokens: z.int(),
  cacheCreationInputTokens: z.int(),
  costUsd: z.string().meta({ description: 'Exact decimal USD' }),
};
const usageTotals = z.object(totals).meta({ title: 'UsageTotals' });
const view = z
  .object({
    from: z.string(),
    to: z.string(),
    asOf: z.nullable(z.string()).meta({ description: 'Every usage row created before this instant is counted; null before the first rollup' }),
    totals: usageTotals,
    days: z.array(z.object({ date: z.string(), totals: usageTotals, byApp: z.array(z.object({ appId: z.string(), model: z.string(), ...totals })) })),
  })
  .meta({ title: 'ConsoleUsage' });

export const USAGE_CONSOLE_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  consoleUsageGet: {
    tag: 'Usage',
    summary: 'Usage and cost',
    description:
      'Tokens, calls and cost by UTC day, app and model over a range (default: the last 30 days), every day of the range listed. Computed every 5 minutes from the usage rows into hour and day totals, so a view reads a few hundred items however many rows the org has; `asOf` says how fresh it is.',
    request: USAGE_CONSOLE_REQUESTS.consoleUsageGet,
    ok: { status: 200, description: 'The totals', content: json(adminData(view, 'ConsoleUsageAnswer')) },
    errors: [...CONSOLE_ERRORS],
  },
};
