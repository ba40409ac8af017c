import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { productionDeps } from '../wiring';
import type { HttpDeps, HttpHandler } from './kit';

/** The Lambda entry of a route module: builds production deps and the wrapped handler on first call. */
export function lambdaHandler(factory: (deps: HttpDeps) => HttpHandler): HttpHandler {
  let built: HttpHandler | undefined;
  return (event: APIGatewayProxyEvent, context: Context) => {
    built ??= factory(productionDeps());
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
export function lambdaStreamHandler(factory: (deps: HttpDeps) => HttpHandler): unknown {
  // Other libraries create a bare `globalThis.awslambda`; only the Lambda runtime gives it streamifyResponse.
  const runtime = (globalThis as { awslambda?: Partial<AwsLambdaGlobal> }).awslambda;
  if (typeof runtime?.streamifyResponse !== 'function' || !runtime.HttpResponseStream) return lambdaHandler(factory);
  const lambda = runtime as AwsLambdaGlobal;
  let built: HttpHandler | undefined;
  return lambda.streamifyResponse(async (event, responseStream, context) => {
    built ??= factory(productionDeps());
    const result = await built(event, context);
    const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)]));
    const out = lambda.HttpResponseStream.from(responseStream, { statusCode: result.statusCode, headers });
    if (result.stream) for await (const piece of result.stream) out.write(piece);
    else if (result.body) out.write(result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body);
    out.end();
  });
}
