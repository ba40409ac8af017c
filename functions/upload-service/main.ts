/**
 * The upload service (docs/adr/0015-chat-file-uploads.md): the container behind the front door that
 * serves the routes whose `origin` is `uploadService` (POST /api/v1/chat/files), with the same handler
 * modules and kit as the Lambdas. Listens on PORT (default 8080); GET /healthz answers 200 for the
 * load balancer's health check. Built from the environment like a Lambda (functions/env.ts).
 *
 * STUB: the serving code lands with the upload route; this file fixes the entry path and contract.
 */
const port = Number(process.env.PORT ?? 8080);
export { port };
