/** The admin routes of the area C catalog: the base admin deps plus the product store. */
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { ENV } from '../../platform/env';
import type { AcpPorts } from '../ports/acp-ports';
import { buildAcpPorts } from './acp-wiring';
import { buildAdminBaseDeps, type AdminBaseDeps } from '../../platform/wiring/admin-wiring';
import { onFirstUse } from '../../platform/wiring/core-wiring';

export type AdminProductsDeps = AdminBaseDeps & AcpPorts;

export const adminProductsProductionDeps = onFirstUse((opts): AdminProductsDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildAdminBaseDeps(opts, db), ...buildAcpPorts(db, opts.env[ENV.tableName]) };
});
