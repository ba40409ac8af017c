import { agentCardDocument } from '../app/acp-discovery';
import { acpProductionDeps, type AcpFunctionDeps } from '../wiring/acp-wiring';
import { publicBaseUrl } from '../../platform/http/base-url';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';

/** GET /acp/{appId}/.well-known/agent-card.json (the A2A Agent Card at its v0.3+ path): describes the app's checkout; public. */
export const createHandler = (deps: AcpFunctionDeps) =>
  httpRoute('acpAgentCardV3', deps, async (req) => ({
    status: 200,
    headers: { 'Cache-Control': 'public, max-age=3600' },
    body: await agentCardDocument(deps, { appId: req.path.appId ?? '', baseUrl: publicBaseUrl(deps, req) }),
  }));

export const handler = lambdaHandler(createHandler, acpProductionDeps);
