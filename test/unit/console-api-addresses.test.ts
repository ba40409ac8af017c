/** The console's snippets name the backend's real addresses and ACP version (the bundle restates them). */
import { describe, expect, it } from 'vitest';
import { ACP_VERSION as BACKEND_ACP_VERSION } from '../../functions/acp/domain/discovery';
import { ROUTES } from '../../functions/routes';
import { ACP_VERSION, CHAT_API_BASE, ORG_EXPORT_BASE } from '../../console/src/api-addresses';

const paths = ROUTES.map((r) => `${r.method} ${r.path}`);

describe('the console’s API addresses', () => {
  it('are the routes the platform serves and the ACP version it speaks', () => {
    expect(paths).toContain(`POST ${CHAT_API_BASE}/chat/completions`);
    expect(paths).toContain(`GET ${ORG_EXPORT_BASE}/apps`);
    expect(ACP_VERSION).toBe(BACKEND_ACP_VERSION);
  });
});
