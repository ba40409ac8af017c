import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { productionDeps } from '../wiring';
import type { HttpDeps, HttpHandler } from './kit';

/** The Lambda entry of a route module: builds production deps and the wrapped handler on first call. */
export function lambdaHandler(factory: (deps: HttpDeps) => HttpHandler): HttpHandler {
  let built: HttpHandler | undefined;
  return (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    built ??= factory(productionDeps());
    return built(event, context);
  };
}
