import { acpProductionDeps, type AcpFunctionDeps } from '../acp-wiring';
import { lambdaHandler } from '../../kernel/http/kit';
import { agentCardRoute } from './acp-agent-card-v3.handler';

/** GET /acp/{appId}/.well-known/agent.json: the card's path before A2A 0.3, kept as an alias serving the same A2A 1.0 card (docs/adr/0032). */
export const createHandler = (deps: AcpFunctionDeps) => agentCardRoute('acpAgentCard', deps);

export const handler = lambdaHandler(createHandler, acpProductionDeps);
