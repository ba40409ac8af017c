/**
 * The upload service (docs/adr/0015-chat-file-uploads.md, docs/adr/0016-upload-service-on-aws.md): the
 * container behind the front door that serves the routes whose `origin` is `uploadService`
 * (POST /api/v1/chat/files), with the same handler modules, kit and HTTP server code as `npm start`.
 * Built from the environment like a Lambda (functions/kernel/env.ts). Listens on PORT (default 8080);
 * GET /healthz answers 200 for the load balancer. SIGTERM stops accepting and lets uploads in flight finish.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { createHandler } from '../chat/http/chat-files-create.handler';
import { attachFrontDoor, frontDoorLog, frontDoorServer, requestListener } from './http-server';
import { compile } from './router';
import { CHAT_ROUTES } from '../chat/chat-routes';
import { parseEnv } from '../tenancy/wiring/core-wiring';
import { buildFileDeps } from '../chat/wiring/upload-wiring';

const HANDLERS = { chatFilesCreate: createHandler } as const;

const logger = new Logger({ serviceName: 'platform-upload-service' });
const deps = buildFileDeps({ env: parseEnv(process.env), logger });
const served = Object.values(CHAT_ROUTES).filter((r) => r.origin === 'uploadService');
const routes = served.map((r) => {
  const factory = HANDLERS[r.id as keyof typeof HANDLERS];
  if (!factory) throw new Error(`route ${r.id} has origin uploadService but no handler in functions/server/upload-service-main.ts`);
  return compile(r, factory(deps));
});
// Behind the front door there is no API Gateway authorizer: the kit resolves keys itself.
const log = frontDoorLog(logger, 'upload service');
const listener = requestListener(routes, undefined, log);
// The same front door as `npm start`: a request Node's parser refuses, or one whose body stream fails,
// ends alone with an answer in the route's area shape; the uploads in flight on this task go on.
const server = attachFrontDoor(
  frontDoorServer(),
  routes,
  (req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      return;
    }
    return listener(req, res);
  },
  log,
);
// Longer than the load balancer's idle timeout, so the balancer closes idle connections first.
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 8080), () =>
  logger.info('upload service listening', { port: Number(process.env.PORT ?? 8080), routes: served.map((r) => r.path) }),
);
process.once('SIGTERM', () => {
  logger.info('SIGTERM: draining');
  server.close(() => process.exit(0));
});
