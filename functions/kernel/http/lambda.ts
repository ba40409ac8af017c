import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { HttpHandler, KitDeps } from './kit';

/**
 * The Lambda entry of a route module: builds the handler on first call from `production`, the
 * production deps of the route's area (its `wiring/` folder), so the bundle holds that area's adapters only.
 */
export function lambdaHandler<D extends KitDeps>(factory: (deps: D) => HttpHandler, production: () => D): HttpHandler {
  let built: HttpHandler | undefined;
  return (event: APIGatewayProxyEvent, context: Context) => {
    built ??= factory(production());
    return built(event, context);
  };
}

/** The runtime's response-streaming API (present on Lambda, absent locally and in tests). */
interface ResponseStream {
  write(chunk: string): boolean;
  end(): void;
}
interface AwsLambdaGlobal {
  streamifyResponse(fn: (event: APIGatewayProxyEvent, stream: ResponseStream, context: Context) => Promise<void>): unknown;
  HttpResponseStream: { from(stream: ResponseStream, prelude: { statusCode: number; headers?: Record<string, string> }): ResponseStream };
}

/**
 * The Lambda entry of a streaming route (API Gateway REST response streaming): the same wrapped
 * handler, its status and headers sent as the stream's prelude, then the body chunk by chunk.
 */
export function lambdaStreamHandler<D extends KitDeps>(factory: (deps: D) => HttpHandler, production: () => D): unknown {
  // Other libraries create a bare `globalThis.awslambda`; only the Lambda runtime gives it streamifyResponse.
  const runtime = (globalThis as { awslambda?: Partial<AwsLambdaGlobal> }).awslambda;
  if (typeof runtime?.streamifyResponse !== 'function' || !runtime.HttpResponseStream) return lambdaHandler(factory, production);
  const lambda = runtime as AwsLambdaGlobal;
  let built: HttpHandler | undefined;
  return lambda.streamifyResponse(async (event, responseStream, context) => {
    built ??= factory(production());
    const result = await built(event, context);
    const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)]));
    const out = lambda.HttpResponseStream.from(responseStream, { statusCode: result.statusCode, headers });
    if (result.stream) for await (const piece of result.stream) out.write(piece);
    else if (result.body) out.write(result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body);
    out.end();
  });
}
